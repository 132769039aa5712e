package datasets

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/umlab/umlab/results"
)

// index.json is what BuildIndex makes of the embedded files: regenerate it
// with go generate ./datasets after adding, changing or removing a dataset.
func TestIndexIsCurrent(t *testing.T) {
	built, err := BuildIndex()
	if err != nil {
		t.Fatal(err)
	}
	b, err := files.ReadFile(indexName)
	if err != nil {
		t.Fatal(err)
	}
	var stored []Entry
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normal(built), normal(stored)) {
		t.Errorf("datasets/%s is stale: run go generate ./datasets", indexName)
	}
	if got := Index(); !reflect.DeepEqual(normal(got), normal(built)) {
		t.Errorf("Index() differs from the data")
	}
	for _, e := range built {
		if e.Rows == 0 || len(e.Groups) == 0 || e.Configs == 0 || e.Bytes == 0 {
			t.Errorf("%s: %d rows, groups %v, %d configurations, %d bytes", e.Name, e.Rows, e.Groups, e.Configs, e.Bytes)
		}
	}
}

// normal makes entries comparable after a JSON round trip (times lose
// their monotonic reading and location).
func normal(es []Entry) string {
	b, _ := json.Marshal(es)
	return string(b)
}

// An entry that does not match its dataset's files, or is missing, is
// made afresh from the data.
func TestIndexStaleEntry(t *testing.T) {
	csv := "group,benchmark,mode,phase,size_bytes,trial,run_id,verified\nhandoff,handoff,managed,gpu_only,1024,0,r,true\nhandoff,handoff,managed,gpu_only,1024,1,r,true\n"
	meta := `{"run_id":"r","platform":"X","kind":"measured","start":"2026-12-01T00:00:00Z","device":{"name":"Y"}}`
	fsys := fstest.MapFS{
		"a/results.csv": {Data: []byte(csv)}, "a/meta.json": {Data: []byte(meta)},
		"b/results.csv": {Data: []byte(csv)}, "b/meta.json": {Data: []byte(meta)},
		indexName: {Data: []byte(`[{"Name":"a","bytes":3,"rows":99,"groups":["hbm"]}]`)},
	}
	got := index(fsys)
	if len(got) != 2 {
		t.Fatalf("%d entries", len(got))
	}
	for _, e := range got {
		if e.Rows != 2 || !e.HasPhase("handoff", "gpu_only") || e.HasPhase("hbm", "") || e.GPU != "Y" || e.Trials != 2 {
			t.Errorf("%s: %+v", e.Name, e)
		}
	}
}

// Cover takes each group from the best dataset that has it, as nb's
// bundled mode does after loading every dataset.
func TestCover(t *testing.T) {
	q := Query{Prefix: "h200-"}
	picks := Cover(q, "hbm", "handoff")
	taken := map[string]string{}
	for _, p := range picks {
		for _, g := range p.Groups {
			taken[g] = p.Name
		}
	}
	for _, g := range []string{"hbm", "handoff"} {
		for _, name := range ByAge(q) {
			rows, _, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(rows, func(r results.Row) bool { return r.Group == g }) {
				if taken[g] != name {
					t.Errorf("group %s taken from %q, want %s, the first by age that has it", g, taken[g], name)
				}
				break
			}
		}
	}
	if all := Cover(q); len(all) == 0 || len(all[0].Groups) < 7 {
		t.Errorf("every group: %+v", all)
	}
}
