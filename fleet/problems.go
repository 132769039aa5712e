package fleet

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// Problem is a difference between parts that makes their figures less
// comparable. Check reports them; Merge writes them into the merged
// directory's manifest and metadata notes.
type Problem struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Kind + ": " + p.Message }

// Problem kinds.
const (
	KindPlatform      = "platform"       // the parts measured different GPU models
	KindCommit        = "commit"         // built from different umbench commits
	KindModule        = "module_version" // different module versions
	KindDriver        = "driver"         // different NVIDIA drivers
	KindMode          = "mode"           // isolated, concurrent and plain runs mixed
	KindPlan          = "plan"           // a setting of the run plan differs
	KindUVM           = "uvm_parameters" // nvidia_uvm module parameters differ
	KindConfiguration = "configuration"  // a configuration is present on some GPUs only
	KindTrials        = "trials"         // different trial counts for a configuration
	KindWarmups       = "warmups"        // different warm-up counts for a configuration
	KindWaived        = "waived"         // waived on some GPUs, measured on others
	KindSameGPU       = "same_gpu"       // one GPU appears in several parts
)

// maxListed is how many configurations a problem names before "and N more".
const maxListed = 4

// identity clears what differs between GPUs measuring the same
// configuration: the GPU UUID, the platform and, for oversubscription rows,
// the sizes, which follow each GPU's free memory (the percentage is the
// configuration).
func identity(r results.Row) results.Row {
	r.GPUUUID, r.Platform = "", ""
	if !math.IsNaN(r.OversubPct) {
		r.SizeBytes, r.FootprintBytes = 0, 0
	}
	return r
}

// ConfigLabel names a configuration briefly, e.g. "hbm triad explicit
// size=1 GiB" or "handoff managed alternating size=256 MiB reuse=4": the
// configuration columns that are set, without platform, GPU and footprint.
func ConfigLabel(r results.Row) string {
	r = identity(r)
	var f []string
	for _, c := range results.ConfigColumns {
		if c == results.ColFootprintBytes { // identity cleared the platform and GPU
			continue
		}
		v, _ := r.Value(c)
		name := cmp.Or(shortNames[c], c)
		switch x := v.(type) {
		case string:
			if x != "" && (len(f) == 0 || f[len(f)-1] != x) {
				f = append(f, x)
			}
		case int64:
			if x == 0 || (c == results.ColStrideElements && x == 1) { // stride 1: contiguous, the default
				continue
			}
			if strings.HasSuffix(c, "_bytes") {
				f = append(f, name+"="+results.FormatBytes(x))
			} else {
				f = append(f, name+"="+strconv.FormatInt(x, 10))
			}
		case float64:
			if !math.IsNaN(x) {
				f = append(f, name+"="+strconv.FormatFloat(x, 'g', -1, 64)+"%")
			}
		}
	}
	return strings.Join(f, " ")
}

// shortNames name configuration columns in labels.
var shortNames = map[string]string{
	results.ColSizeBytes: "size", results.ColStrideElements: "stride", results.ColPageIntervalBytes: "page_interval",
	results.ColOversubPct: "oversub", results.ColReusePasses: "reuse",
}

// group is parts that share a value.
type group struct {
	value  string
	labels []string
}

// groupBy groups parts by a value, largest group first.
func groupBy(parts []Part, f func(*Part) string) []group {
	return groupIdx(len(parts), func(i int) string { return f(&parts[i]) }, func(i int) string { return parts[i].Label })
}

// groupIdx groups n items by a value of their index, largest group
// first, listing each item's label.
func groupIdx(n int, value, label func(i int) string) []group {
	var gs []group
	var at results.FirstSeen[string]
	for i := range n {
		v := value(i)
		j, isNew := at.Of(v)
		if isNew {
			gs = append(gs, group{value: v})
		}
		gs[j].labels = append(gs[j].labels, label(i))
	}
	sort.SliceStable(gs, func(a, b int) bool { return len(gs[a].labels) > len(gs[b].labels) })
	return gs
}

// describe writes groups as "v1 on a, b; v2 on c".
func describe(gs []group) string {
	var s []string
	for _, g := range gs {
		s = append(s, g.value+" on "+listLabels(g.labels))
	}
	return strings.Join(s, "; ")
}

// labelsOf lists the parts' labels.
func labelsOf(parts []Part) []string {
	l := make([]string, len(parts))
	for i := range parts {
		l[i] = parts[i].Label
	}
	return l
}

// listLabels lists part labels, abbreviating long lists.
func listLabels(l []string) string {
	if len(l) > 6 {
		return strings.Join(l[:5], ", ") + fmt.Sprintf(", … (%d GPUs)", len(l))
	}
	return strings.Join(l, ", ")
}

func listConfigs(labels []string) string {
	if len(labels) > maxListed {
		return strings.Join(labels[:maxListed], "; ") + fmt.Sprintf("; and %d more", len(labels)-maxListed)
	}
	return strings.Join(labels, "; ")
}
