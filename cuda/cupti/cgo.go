package cupti

// This is the package's only file that imports "C": thin wrappers around
// umlab_cupti.c. Everything else is plain Go.

/*
#cgo CFLAGS: -O2 -std=gnu11
#cgo LDFLAGS: -ldl -lpthread
#include <stdlib.h>
#include "umlab_cupti.h"
*/
import "C"

import "unsafe"

// libTable is a resolved entry-point table, not yet installed.
type libTable struct{ api C.umlab_cupti_api }

// cLoad opens path and resolves the entry points. rc 0: success, 1: dlopen
// failed, 2: an entry point is missing; msg says why.
func cLoad(path string) (*libTable, int, string) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var msg [512]C.char
	t := new(libTable)
	rc := C.umlab_cupti_load(cs, &t.api, &msg[0], C.size_t(len(msg)))
	return t, int(rc), C.GoString(&msg[0])
}

func (t *libTable) version() (uint32, Result) {
	var v C.uint32_t
	r := C.umlab_cupti_version_of(&t.api, &v)
	return uint32(v), Result(r)
}

func (t *libTable) install() { C.umlab_cupti_install(&t.api) }

func cResultString(r Result) string {
	s := C.umlab_cupti_result_string(C.CUptiResult(r))
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// Layouts returns the known record layouts with the CUPTI versions that use
// them.
func Layouts() []Layout {
	n := int(C.umlab_cupti_layout_count())
	out := make([]Layout, n)
	for i := range out {
		l := C.umlab_cupti_layout_at(C.int(i))
		out[i] = Layout{
			Name: C.GoString(l.name), FirstAPI: uint32(l.first_api), LastAPI: uint32(l.last_api),
			Size: int(l.size), OffKind: int(l.off_kind), OffCounterKind: int(l.off_counter_kind), OffValue: int(l.off_value),
			index: i,
		}
	}
	return out
}

func cLayoutFor(apiVersion uint32) int { return int(C.umlab_cupti_layout_for(C.uint32_t(apiVersion))) }

func cRegister(layout int) Result { return Result(C.umlab_cupti_register(C.int(layout))) }

func cConfigure(kinds []CounterKind, enable bool) Result {
	var k [16]C.int
	for i, v := range kinds {
		k[i] = C.int(v)
	}
	e := C.int(0)
	if enable {
		e = 1
	}
	return Result(C.umlab_cupti_configure(&k[0], C.int(len(kinds)), e))
}

func cEnable() Result  { return Result(C.umlab_cupti_enable()) }
func cDisable() Result { return Result(C.umlab_cupti_disable()) }
func cReset()          { C.umlab_cupti_reset() }

// cFlushForced flushes partly filled buffers too (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED).
func cFlushForced() Result { return Result(C.umlab_cupti_flush(1)) }

func cDropped() (uint64, Result) {
	var n C.uint64_t
	r := C.umlab_cupti_dropped(&n)
	return uint64(n), Result(r)
}

func cRead() Counts {
	var t C.umlab_cupti_totals
	C.umlab_cupti_read(&t)
	return fromTotals(&t)
}

// fromTotals converts the C totals. Values are bytes for HtoD, DtoH, DtoD,
// thrashing and remote map, fault groups for GPU page faults; a CPU page
// fault record's value is a program counter, so only records are counted.
func fromTotals(t *C.umlab_cupti_totals) Counts {
	rec := func(k CounterKind) uint64 { return uint64(t.records[k]) }
	sum := func(k CounterKind) uint64 { return uint64(t.sums[k]) }
	return Counts{
		BytesHtoD: sum(KindBytesHtoD), BytesDtoH: sum(KindBytesDtoH), BytesDtoD: sum(KindBytesDtoD),
		CPUPageFaults: rec(KindCPUPageFault),
		GPUPageFaults: rec(KindGPUPageFault), GPUPageFaultGroups: sum(KindGPUPageFault),
		Thrashing: rec(KindThrashing), ThrashingBytes: sum(KindThrashing),
		Throttling: rec(KindThrottling),
		RemoteMap:  rec(KindRemoteMap), RemoteMapBytes: sum(KindRemoteMap),
		TransferRecords: rec(KindBytesHtoD) + rec(KindBytesDtoH) + rec(KindBytesDtoD),
		Records:         uint64(t.um_records), UnknownKind: uint64(t.records[0]), OtherRecords: uint64(t.other_records),
		Incomplete: uint64(t.incomplete), SpacingErrors: uint64(t.spacing_errors), RecordSize: int(t.last_spacing),
		Buffers: uint64(t.buffers),
	}
}

// parseSimulated runs the parser that reads CUPTI's buffers on b, iterating
// records stride bytes apart the way cuptiActivityGetNextRecord does, and
// returns what it counted.
func parseSimulated(b []byte, stride int, l Layout) Counts {
	p := C.CBytes(b) // malloc'd, so 8-byte aligned as CUPTI's buffers are
	defer C.free(p)
	var t C.umlab_cupti_totals
	C.umlab_cupti_parse_simulated((*C.uint8_t)(p), C.size_t(len(b)), C.size_t(stride), C.int(l.index), &t)
	return fromTotals(&t)
}

// accumulateSimulated feeds b through the completion callback's
// accumulation into the process-wide totals that Snapshot and Stop read.
func accumulateSimulated(b []byte, stride int, l Layout) {
	p := C.CBytes(b) // malloc'd, so 8-byte aligned as CUPTI's buffers are
	defer C.free(p)
	C.umlab_cupti_accumulate_simulated((*C.uint8_t)(p), C.size_t(len(b)), C.size_t(stride), C.int(l.index))
}
