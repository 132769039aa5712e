package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// ModelName is the file of a dataset folder that holds reuse-model
// parameters.
const ModelName = "model.csv"

// ModelParam holds the parameters of the reuse-amortized handoff model of one
// policy and working-set size (paper, Section VIII-B): alternating execution
// with R GPU passes after each CPU update takes F + R·G.
type ModelParam struct {
	Policy       string  // handoff policy, as in the policy column
	SizeBytes    int64   // working-set size
	FMs          float64 // F_p: fixed CPU-side and handoff cost per exchange, ms
	GMs          float64 // G_p: marginal cost of one GPU pass, ms
	MedianAPEPct float64 // median absolute percentage error over the validation points
	MaxAPEPct    float64 // maximum absolute percentage error
	Source       string  // e.g. Table III
}

// Predict returns the modelled time in ms of one alternating iteration with
// r GPU passes after the CPU update.
func (p ModelParam) Predict(r int) float64 { return p.FMs + float64(r)*p.GMs }

// modelColumns is the header of model.csv.
var modelColumns = []string{"policy", "size_bytes", "f_ms", "g_ms", "median_ape_pct", "max_ape_pct", "source"}

// ModelParameters returns the model parameters stored with an embedded
// dataset. A dataset without a model.csv gives none and no error.
func ModelParameters(name string) ([]ModelParam, error) {
	return modelParameters(embedded, name)
}

func modelParameters(fsys fs.FS, name string) ([]ModelParam, error) {
	if !known(fsys, name) {
		return nil, unknown(fsys, name)
	}
	p := path.Join(name, ModelName)
	b, err := fs.ReadFile(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	return readModel(bytes.NewReader(b), "datasets/"+p)
}

// readModel parses a model CSV; name is used in errors, which give the line.
func readModel(r io.Reader, name string) ([]ModelParam, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, no header line", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if strings.Join(head, ",") != strings.Join(modelColumns, ",") {
		return nil, fmt.Errorf("%s:1: header %q, want %q", name, strings.Join(head, ","), strings.Join(modelColumns, ","))
	}
	var out []ModelParam
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(modelColumns) {
			return nil, fmt.Errorf("%s:%d: %d fields, header has %d", name, line, len(rec), len(modelColumns))
		}
		p := ModelParam{Policy: rec[0], Source: rec[6]}
		if p.SizeBytes, err = strconv.ParseInt(rec[1], 10, 64); err != nil {
			return nil, fmt.Errorf("%s:%d: size_bytes: %q is not an integer", name, line, rec[1])
		}
		for i, dst := range []*float64{&p.FMs, &p.GMs, &p.MedianAPEPct, &p.MaxAPEPct} {
			if *dst, err = strconv.ParseFloat(rec[2+i], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %q is not a number", name, line, modelColumns[2+i], rec[2+i])
			}
		}
		out = append(out, p)
	}
}
