package cuda

import (
	"fmt"
	"slices"
	"strings"
)

// Location is where managed memory can be placed: the CPU, a GPU, or
// nowhere in particular (a range attribute with no value).
type Location struct {
	kind   int // 0 none, 1 device, 2 host
	Device int // GPU ordinal when kind is device
}

const (
	locDevice    = 1  // CU_MEM_LOCATION_TYPE_DEVICE
	locHost      = 2  // CU_MEM_LOCATION_TYPE_HOST
	cuDeviceCPU  = -1 // CU_DEVICE_CPU in range attributes
	cuDeviceNone = -2 // CU_DEVICE_INVALID: no location
)

// Locations.
var (
	CPU        = Location{kind: locHost}
	NoLocation = Location{}
)

// GPU is the location of the device with the given ordinal.
func GPU(ordinal int) Location { return Location{kind: locDevice, Device: ordinal} }

func (l Location) String() string {
	switch l.kind {
	case locDevice:
		return fmt.Sprintf("gpu%d", l.Device)
	case locHost:
		return "cpu"
	}
	return "none"
}

func locationFromLegacy(v int32) Location {
	switch {
	case v == int32(cuDeviceCPU):
		return CPU
	case v >= 0:
		return GPU(int(v))
	}
	return NoLocation
}

func (c *Context) managedOnly(call string, b *Buffer) error {
	if err := b.usable(call); err != nil {
		return err
	}
	if b.kind != ManagedMemory && !(b.kind == PageableHost && c.attrs.PageableMemoryAccess) {
		return argError(call, "%s memory: only managed memory (or pageable memory on HMM/ATS systems) has a placement", b.kind)
	}
	return nil
}

// Prefetch queues a migration of b to loc on s (cuMemPrefetchAsync; the _v2
// form on CUDA 12.2+ drivers). It needs concurrent managed access.
func (c *Context) Prefetch(b *Buffer, loc Location, s *Stream) error {
	if err := c.managedOnly("Prefetch", b); err != nil {
		return err
	}
	if !c.attrs.ConcurrentManagedAccess {
		return fmt.Errorf("%w: prefetch needs concurrent managed access, which %s does not report", ErrUnsupported, c.attrs.Name)
	}
	if loc.kind == 0 {
		return argError("Prefetch", "no destination: use cuda.CPU or cuda.GPU(n)")
	}
	return c.prefetchRange(b, 0, b.bytes, loc, s)
}

// prefetchRange is Prefetch of bytes [off, off+bytes) of b, unchecked.
func (c *Context) prefetchRange(b *Buffer, off, bytes uint64, loc Location, s *Stream) error {
	r := do(opPrefetch, c.h, b.dptr+off, bytes, uint64(loc.kind), uint64(loc.Device), s.handle())
	return check("cuMemPrefetchAsync", r)
}

// Advice is a cuMemAdvise hint.
type Advice int

// Advice values (CUmem_advise).
const (
	SetReadMostly          Advice = 1
	UnsetReadMostly        Advice = 2
	SetPreferredLocation   Advice = 3
	UnsetPreferredLocation Advice = 4
	SetAccessedBy          Advice = 5
	UnsetAccessedBy        Advice = 6
)

var adviceNames = map[Advice]string{
	SetReadMostly: "set_read_mostly", UnsetReadMostly: "unset_read_mostly",
	SetPreferredLocation: "set_preferred_location", UnsetPreferredLocation: "unset_preferred_location",
	SetAccessedBy: "set_accessed_by", UnsetAccessedBy: "unset_accessed_by",
}

func (a Advice) String() string {
	if n, ok := adviceNames[a]; ok {
		return n
	}
	return fmt.Sprintf("Advice(%d)", int(a))
}

// Advise applies a hint to the whole of b. loc is ignored by the read-mostly
// hints; the others need the CPU or a GPU.
func (c *Context) Advise(b *Buffer, a Advice, loc Location) error {
	if err := c.managedOnly("Advise", b); err != nil {
		return err
	}
	if _, ok := adviceNames[a]; !ok {
		return argError("Advise", "unknown advice %d", int(a))
	}
	if a != SetReadMostly && a != UnsetReadMostly && loc.kind == 0 {
		return argError("Advise", "%s needs a location: cuda.CPU or cuda.GPU(n)", a)
	}
	if loc.kind == 0 {
		loc = GPU(c.dev.Ordinal)
	}
	r := do(opAdvise, c.h, b.dptr, b.bytes, uint64(a), uint64(loc.kind), uint64(loc.Device))
	return check("cuMemAdvise("+a.String()+")", r)
}

// RangeAttributes is the driver's view of a managed range: the observed
// placement policy, as opposed to what a benchmark assumes.
type RangeAttributes struct {
	ReadMostly        bool
	PreferredLocation Location
	LastPrefetch      Location
	AccessedBy        []Location
}

// String renders the attributes compactly, e.g.
// "pref=gpu0;last=gpu0;by=gpu0;read_mostly=false".
func (r RangeAttributes) String() string {
	by := make([]string, len(r.AccessedBy))
	for i, l := range r.AccessedBy {
		by[i] = l.String()
	}
	if len(by) == 0 {
		by = []string{"none"}
	}
	return fmt.Sprintf("pref=%s;last=%s;by=%s;read_mostly=%t", r.PreferredLocation, r.LastPrefetch, strings.Join(by, ","), r.ReadMostly)
}

// RangeAttributes reads the attributes of the whole of b.
func (c *Context) RangeAttributes(b *Buffer) (RangeAttributes, error) {
	var ra RangeAttributes
	if err := c.managedOnly("RangeAttributes", b); err != nil {
		return ra, err
	}
	var vals [3]int32
	for i, a := range []struct {
		attr int // CUmem_range_attribute
		name string
	}{{1, "read_mostly"}, {2, "preferred_location"}, {4, "last_prefetch_location"}} {
		v := []int32{cuDeviceNone}
		if err := check("cuMemRangeGetAttribute("+a.name+")", cRangeAttrInts(c.h, a.attr, b.dptr, b.bytes, v)); err != nil {
			return ra, err
		}
		vals[i] = v[0]
	}
	ra.ReadMostly = vals[0] != 0
	ra.PreferredLocation, ra.LastPrefetch = locationFromLegacy(vals[1]), locationFromLegacy(vals[2])
	n, err := DeviceCount()
	if err != nil {
		return ra, err
	}
	by := slices.Repeat([]int32{cuDeviceNone}, n+1) // every device, and the CPU
	if err := check("cuMemRangeGetAttribute(accessed_by)", cRangeAttrInts(c.h, 3, b.dptr, b.bytes, by)); err != nil {
		return ra, err
	}
	for _, v := range by {
		if l := locationFromLegacy(v); l.kind != 0 {
			ra.AccessedBy = append(ra.AccessedBy, l)
		}
	}
	return ra, nil
}
