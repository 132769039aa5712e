package plots

import "encoding/base64"

// DataURI renders the figure as a PNG and returns it as a data: URI, for
// an img element of a self-contained HTML page (no file beside it, no
// network).
func (f *Figure) DataURI() (string, error) {
	b, err := f.PNG()
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b), nil
}
