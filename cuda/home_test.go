package cuda

import "testing"

// The pieces cover the buffer exactly, in order, in whole 32 MiB pieces but
// the last, and never more than homeChunks of them.
func TestHomePieces(t *testing.T) {
	for _, bytes := range []uint64{8, 2 << 20, 32 << 20, 32<<20 + 8, 1 << 30, 1<<30 + 24, 1800 << 20, 5 << 30} {
		ps := homePieces(bytes)
		if len(ps) == 0 || len(ps) > homeChunks {
			t.Fatalf("%d bytes: %d pieces", bytes, len(ps))
		}
		var off uint64
		for i, p := range ps {
			if p.off != off || p.bytes == 0 {
				t.Fatalf("%d bytes: piece %d = %+v after %d", bytes, i, p, off)
			}
			if i < len(ps)-1 && p.bytes%homeChunkBytes != 0 {
				t.Errorf("%d bytes: piece %d of %d bytes, not whole %d", bytes, i, p.bytes, homeChunkBytes)
			}
			off += p.bytes
		}
		if off != bytes {
			t.Errorf("%d bytes: pieces cover %d", bytes, off)
		}
	}
	if n := len(homePieces(1 << 30)); n != 32 {
		t.Errorf("1 GiB: %d pieces, want 32 of 32 MiB", n)
	}
}
