package umkit

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/umlab/umlab/cuda/nvml"

	"github.com/umlab/umlab/internal/nvmlguard"
)

// nvmlFacts are what NVML adds to the driver's view of a GPU.
type nvmlFacts struct {
	DriverVersion         string
	PCIeGen, PCIeWidth    int
	NUMANode              int
	CPUs                  []int // CPUs local to the GPU
	SMClockMHz, MemClkMHz int
	MaxSMClockMHz         int
	Throttle              string // active clock event reasons other than idle
}

// nvmlReady gates every NVML call (see internal/nvmlguard).
func nvmlReady() bool { return nvmlguard.Ready() }

func readNVML(uuid string) (nvmlFacts, error) {
	f := nvmlFacts{NUMANode: -1}
	if !nvmlReady() {
		return f, fmt.Errorf("umkit: NVML (libnvidia-ml.so.1) is not available")
	}
	if v, ret := nvml.SystemGetDriverVersion(); ret == nvml.SUCCESS {
		f.DriverVersion = v
	}
	d, ret := nvml.DeviceGetHandleByUUID(uuid)
	if ret != nvml.SUCCESS {
		return f, fmt.Errorf("umkit: NVML has no device %s: %s", uuid, nvml.ErrorString(ret))
	}
	if v, ret := d.GetCurrPcieLinkGeneration(); ret == nvml.SUCCESS {
		f.PCIeGen = v
	}
	if v, ret := d.GetCurrPcieLinkWidth(); ret == nvml.SUCCESS {
		f.PCIeWidth = v
	}
	if v, ret := d.GetNumaNodeId(); ret == nvml.SUCCESS {
		f.NUMANode = v
	}
	if set, ret := d.GetCpuAffinity(runtime.NumCPU()); ret == nvml.SUCCESS {
		f.CPUs = nvmlguard.CPUs(set)
	}
	if v, ret := d.GetClockInfo(nvml.CLOCK_SM); ret == nvml.SUCCESS {
		f.SMClockMHz = int(v)
	}
	if v, ret := d.GetClockInfo(nvml.CLOCK_MEM); ret == nvml.SUCCESS {
		f.MemClkMHz = int(v)
	}
	if v, ret := d.GetMaxClockInfo(nvml.CLOCK_SM); ret == nvml.SUCCESS {
		f.MaxSMClockMHz = int(v)
	}
	if v, ret := d.GetCurrentClocksEventReasons(); ret == nvml.SUCCESS {
		f.Throttle = throttleString(v)
	}
	return f, nil
}

var throttleNames = []struct {
	bit  uint64
	name string
}{
	{nvml.ClocksEventReasonApplicationsClocksSetting, "applications_clocks"},
	{nvml.ClocksEventReasonSwPowerCap, "sw_power_cap"},
	{8, "hw_slowdown"},
	{nvml.ClocksEventReasonSyncBoost, "sync_boost"},
	{nvml.ClocksEventReasonSwThermalSlowdown, "sw_thermal"},
	{64, "hw_thermal"},
	{128, "hw_power_brake"},
	{nvml.ClocksEventReasonDisplayClockSetting, "display_clocks"},
}

// throttleString names active clock event reasons; idle is not a throttle.
func throttleString(v uint64) string {
	var out []string
	for _, t := range throttleNames {
		if v&t.bit != 0 {
			out = append(out, t.name)
		}
	}
	return strings.Join(out, ",")
}

// uvmParameters reads the nvidia_uvm module parameters (read-only files),
// to record which defaults applied.
func uvmParameters() map[string]string {
	const dir = "/sys/module/nvidia_uvm/parameters"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, e := range ents {
		if b, err := os.ReadFile(dir + "/" + e.Name()); err == nil {
			m[e.Name()] = strings.TrimSpace(string(b))
		}
	}
	return m
}
