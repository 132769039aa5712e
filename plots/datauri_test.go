package plots_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/plots"
)

func TestDataURI(t *testing.T) {
	rows, _, err := datasets.Load("paper-gb200")
	if err != nil {
		t.Fatal(err)
	}
	f, err := plots.Bars(plots.Where(rows, "group", "hbm"), "gbps", plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.DataURI()
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(u, prefix) {
		t.Fatalf("no PNG data URI: %.40s", u)
	}
	b, err := base64.StdEncoding.DecodeString(u[len(prefix):])
	if err != nil || len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Fatalf("not a base64 PNG: %v", err)
	}
}
