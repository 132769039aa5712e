package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/umlab/umlab/datasets"
)

// TestREADMEUpToDate regenerates the README's blocks from the datasets
// they cite: go test ./... fails on a stale figure, as .ci/run does.
func TestREADMEUpToDate(t *testing.T) {
	root = "../.."
	old, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := Regenerate(old)
	if err != nil {
		t.Fatal(err)
	}
	if stale := Stale(old, gen); len(stale) > 0 {
		t.Fatalf("stale: %v: run go run ./internal/readmegen", stale)
	}
	for _, name := range blockNames() {
		if !bytes.Contains(old, []byte("<!-- readme:"+name+" -->")) {
			t.Errorf("README.md has no %s block", name)
		}
	}
}

// A cell that names several configurations is refused, never pooled
// (the oversubscription sweep has streaming, strided and random rows at
// each percentage).
func TestCellNeverPools(t *testing.T) {
	rows, _, err := datasets.Load(datasets.CanonicalFull)
	if err != nil {
		t.Fatal(err)
	}
	c := cell{"oversub", "stream", "managed_prefetch", "", 0, 90, ""}
	if _, err := c.trials(rows); err == nil || !strings.Contains(err.Error(), "several configurations") {
		t.Fatalf("err = %v, want several configurations refused", err)
	}
	c.pattern = "streaming"
	if x, err := c.trials(rows); err != nil || len(x) != 25 {
		t.Fatalf("streaming at 90 %%: %d trials, %v", len(x), err)
	}
}

func TestBlocksRefuseBadMarkers(t *testing.T) {
	for _, in := range []string{
		"<!-- readme:nosuch -->\n<!-- /readme:nosuch -->",
		"<!-- readme:model -->\n<!-- /readme:results -->",
	} {
		if _, err := Regenerate([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
