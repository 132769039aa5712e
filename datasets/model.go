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

	"github.com/umlab/umlab/model"
)

// ModelName is the file of a dataset folder that holds reuse-model
// parameters.
const ModelName = "model.csv"

// modelColumns is the header of model.csv.
var modelColumns = []string{"policy", "size_bytes", "f_ms", "g_ms", "median_ape_pct", "max_ape_pct", "source"}

// ModelParameters returns the reuse-model parameters (paper, Section
// VIII-B) stored with an embedded dataset, as model.Calibration: the
// parameters (with the dataset's platform and their source) and their
// validation errors. A dataset without a model.csv gives none and no error.
func ModelParameters(name string) ([]model.Calibration, error) {
	return modelParameters(embedded, name)
}

func modelParameters(fsys fs.FS, name string) ([]model.Calibration, error) {
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
	ps, err := readModel(bytes.NewReader(b), "datasets/"+p)
	if err != nil {
		return nil, err
	}
	if m, err := readMeta(fsys, name); err == nil {
		for i := range ps {
			ps[i].Platform = m.Platform
		}
	}
	return ps, nil
}

// readModel parses a model CSV; name is used in errors, which give the line.
func readModel(r io.Reader, name string) ([]model.Calibration, error) {
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
	var out []model.Calibration
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
		p := model.Calibration{Param: model.Param{Policy: rec[0], Source: rec[6]}}
		if p.SizeBytes, err = strconv.ParseInt(rec[1], 10, 64); err != nil {
			return nil, fmt.Errorf("%s:%d: size_bytes: %q is not an integer", name, line, rec[1])
		}
		for i, dst := range []*float64{&p.F, &p.G, &p.MedianAPE, &p.MaxAPE} {
			if *dst, err = strconv.ParseFloat(rec[2+i], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %q is not a number", name, line, modelColumns[2+i], rec[2+i])
			}
		}
		out = append(out, p)
	}
}
