package nvml

import (
	"os"
	"testing"
)

func TestErrorStringWithoutLibrary(t *testing.T) {
	if got := ErrorString(ERROR_NOT_SUPPORTED); got == "" {
		t.Fatal("empty error string")
	}
	if got := ErrorString(Return(12345)); got != "NVML error 12345" && got == "" {
		t.Fatalf("unknown code: %q", got)
	}
}

// Without a driver, Init fails cleanly and later calls return errors
// rather than ending the process; with one, the facts are plausible.
func TestInit(t *testing.T) {
	r := Init()
	if r != SUCCESS {
		_, loadMsg := load()
		if os.Getenv("UMLAB_REQUIRE_GPU") == "1" {
			t.Fatalf("Init: %s (%s)", ErrorString(r), loadMsg)
		}
		if _, r2 := DeviceGetHandleByUUID("GPU-00000000-0000-0000-0000-000000000000"); r2 == SUCCESS {
			t.Fatal("a device without NVML")
		}
		if _, r2 := SystemGetDriverVersion(); r2 == SUCCESS {
			t.Fatal("a driver version without NVML")
		}
		t.Skipf("no NVML here: %s (%s)", ErrorString(r), loadMsg)
	}
	v, r := SystemGetDriverVersion()
	if r != SUCCESS || v == "" {
		t.Fatalf("driver version %q: %s", v, ErrorString(r))
	}
	t.Logf("driver %s", v)
}
