package cupti

import (
	"fmt"
	"strings"
)

// CounterKind is a Unified Memory counter kind
// (CUpti_ActivityUnifiedMemoryCounterKind).
type CounterKind int

// Counter kinds. Kinds 5 to 8 are documented for 64-bit Linux only.
const (
	KindBytesHtoD    CounterKind = 1 // bytes migrated host to device
	KindBytesDtoH    CounterKind = 2 // bytes migrated device to host
	KindCPUPageFault CounterKind = 3 // one record per CPU page fault (value: the faulting PC)
	KindGPUPageFault CounterKind = 4 // value: page fault groups for one page
	KindThrashing    CounterKind = 5 // value: bytes of the thrashing region
	KindThrottling   CounterKind = 6 // the driver delayed a processor's faults
	KindRemoteMap    CounterKind = 7 // value: bytes mapped remotely instead of migrated
	KindBytesDtoD    CounterKind = 8 // bytes migrated device to device
)

// AllKinds are the counters Open asks for.
var AllKinds = []CounterKind{KindBytesHtoD, KindBytesDtoH, KindCPUPageFault, KindGPUPageFault,
	KindThrashing, KindThrottling, KindRemoteMap, KindBytesDtoD}

// basicKinds are asked for alone when a platform refuses AllKinds.
var basicKinds = AllKinds[:4]

var kindNames = map[CounterKind]string{
	KindBytesHtoD: "bytes_htod", KindBytesDtoH: "bytes_dtoh", KindCPUPageFault: "cpu_page_fault",
	KindGPUPageFault: "gpu_page_fault", KindThrashing: "thrashing", KindThrottling: "throttling",
	KindRemoteMap: "remote_map", KindBytesDtoD: "bytes_dtod",
}

func (k CounterKind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("CounterKind(%d)", int(k))
}

// Layout is where a Unified Memory counter record keeps the fields umlab
// reads. The table lives in umlab_cupti.c (one table, used by the parser);
// Layouts returns it.
type Layout struct {
	Name              string // the CUPTI struct, e.g. CUpti_ActivityUnifiedMemoryCounter3
	FirstAPI, LastAPI uint32 // CUPTI_API_VERSION range that emits it
	Size              int    // bytes per record
	OffKind           int    // uint32 activity kind, 25
	OffCounterKind    int    // uint32 counter kind
	OffValue          int    // uint64 value
	index             int
}

func (l Layout) String() string {
	return fmt.Sprintf("%s (%d bytes; kind@%d counterKind@%d value@%d)", l.Name, l.Size, l.OffKind, l.OffCounterKind, l.OffValue)
}

// LayoutFor returns the record layout of a CUPTI_API_VERSION (the value
// cuptiGetVersion returns), or an error wrapping ErrUnsupportedVersion.
func LayoutFor(apiVersion uint32) (Layout, error) {
	i := cLayoutFor(apiVersion)
	if i < 0 {
		var known []string
		for _, l := range Layouts() {
			known = append(known, fmt.Sprintf("%d–%d (CUDA %s–%s: %s)", l.FirstAPI, l.LastAPI,
				versionString(CUDAVersion(l.FirstAPI)), versionString(CUDAVersion(l.LastAPI)), l.Name))
		}
		return Layout{}, fmt.Errorf("%w: CUPTI_API_VERSION %d (%s) has no known Unified Memory record layout; "+
			"umlab reads API versions %s. Point %s at a libcupti from CUDA 12 or 13",
			ErrUnsupportedVersion, apiVersion, describeAPI(apiVersion), strings.Join(known, ", "), EnvLibrary)
	}
	return Layouts()[i], nil
}

// CUDAVersion returns the CUDA toolkit release a CUPTI_API_VERSION belongs
// to, as 1000*major + 10*minor, or 0 when unknown. From CUDA 13.0 the API
// version is xxyyzz (major, minor, CUPTI update); before, a counter whose
// values cupti_version.h lists.
func CUDAVersion(apiVersion uint32) int {
	if apiVersion >= 100000 {
		return int(apiVersion/10000)*1000 + int(apiVersion/100%100)*10
	}
	return map[uint32]int{
		13: 11000, 14: 11010, 15: 11020, 16: 11050, 17: 11060, 18: 11080,
		19: 12000, 20: 12020, 21: 12030, 22: 12040, 23: 12050, 24: 12060, 26: 12080, 27: 12090, 28: 12090,
	}[apiVersion]
}

func describeAPI(v uint32) string {
	if c := CUDAVersion(v); c > 0 {
		return "CUDA " + versionString(c)
	}
	return "an unknown CUDA release"
}

func versionString(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }
