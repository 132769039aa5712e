package check

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// nanFloats sets every exported float64 field of the struct v points to
// to NaN and returns their JSON names.
func nanFloats(t *testing.T, v any) []string {
	t.Helper()
	rv := reflect.ValueOf(v).Elem()
	var names []string
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Float64 {
			continue
		}
		rv.Field(i).SetFloat(math.NaN())
		names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	return names
}

// Every number of a report that is NaN (nothing measured or judged, as
// when every configuration is skipped) is written as null by WriteJSON,
// in the report, its resources and its results: any float field, also
// one added later, is set to NaN here.
func TestWriteJSONNaNIsNull(t *testing.T) {
	rep := &Report{GPU: Skip, Host: Skip, Results: make([]Result, 1), Resources: make([]ResourceResult, 1)}
	top := nanFloats(t, rep)
	res := nanFloats(t, &rep.Results[0])
	rsc := nanFloats(t, &rep.Resources[0])
	rep.Resources[0].Lo = math.Inf(-1)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatalf("WriteJSON: %v", err)
	}
	var got struct {
		Top       map[string]any
		Results   []map[string]any `json:"results"`
		Resources []map[string]any `json:"resources"`
	}
	if err := json.Unmarshal(b.Bytes(), &got.Top); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		where string
		obj   map[string]any
		names []string
	}{{"report", got.Top, top}, {"result", got.Results[0], res}, {"resource", got.Resources[0], rsc}} {
		for _, n := range c.names {
			if v, ok := c.obj[n]; !ok || v != nil {
				t.Errorf("%s %s: %v (present %v), want null", c.where, n, v, ok)
			}
		}
	}
	if len(res) < 8 || len(rsc) < 5 {
		t.Errorf("float fields found: result %v, resource %v", res, rsc)
	}
}
