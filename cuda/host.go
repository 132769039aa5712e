package cuda

// SeedValue is the value of element i of a buffer filled with seed: an
// integer in [1, 2^20] from a splitmix64 hash. The CPU fill and the device
// kernels compute the same function, and every benchmark operation on such
// values (adding small integers, scaling by powers of two) is exact in
// float64, so checks compare for equality.
func SeedValue(seed, i uint64) float64 { return cSeedValue(seed, i) }

func hostNeed(call string, b *Buffer, n uint64) error {
	if err := b.usable(call); err != nil {
		return err
	}
	if b.host == nil {
		return argError(call, "%s memory is not accessible from the CPU", b.kind)
	}
	if n == 0 || n > b.bytes/8 {
		return argError(call, "%d elements in a buffer of %d bytes", n, b.bytes)
	}
	return nil
}

// FillHost writes SeedValue(seed, i) to x[i] for i < n from the CPU. For
// managed memory this touches every page on the CPU, making it CPU-resident:
// the "CPU-initialised" state of the paper's cold first-touch mode.
func FillHost(x *Buffer, n, seed uint64) error {
	if err := hostNeed("FillHost", x, n); err != nil {
		return err
	}
	cFillHost(x.host, n, seed)
	return nil
}

// UpdateHost applies x = x*mul + add to n elements from the CPU: the CPU
// update of the handoff benchmark.
func UpdateHost(x *Buffer, n uint64, mul, add float64) error {
	if err := hostNeed("UpdateHost", x, n); err != nil {
		return err
	}
	cUpdateHost(x.host, n, mul, add)
	return nil
}

// CheckAffineHost is CheckAffine run by the CPU.
func CheckAffineHost(x *Buffer, n, seed uint64, mul, add float64, stride, active uint64) (Mismatch, error) {
	if err := hostNeed("CheckAffineHost", x, n); err != nil {
		return Mismatch{}, err
	}
	if stride == 0 {
		return Mismatch{}, argError("CheckAffineHost", "stride 0")
	}
	bad, first := cCheckAffineHost(x.host, n, seed, mul, add, stride, active)
	return Mismatch{bad, first}, nil
}

// CheckTriadHost is CheckTriad run by the CPU.
func CheckTriadHost(a *Buffer, n, seedB, seedC uint64, scalar float64) (Mismatch, error) {
	if err := hostNeed("CheckTriadHost", a, n); err != nil {
		return Mismatch{}, err
	}
	bad, first := cCheckTriadHost(a.host, n, seedB, seedC, scalar)
	return Mismatch{bad, first}, nil
}
