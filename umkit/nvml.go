package umkit

import (
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/umlab/umlab/cuda/nvml"
	"github.com/umlab/umlab/internal/nvmlguard"
	"github.com/umlab/umlab/results"
)

// readNVML fills d with what NVML adds to the driver's view of the GPU
// with the given UUID and returns the CPUs local to it.
func readNVML(uuid string, d *results.Device) ([]int, error) {
	if !nvmlguard.Ready() {
		return nil, fmt.Errorf("umkit: NVML (libnvidia-ml.so.1) is not available")
	}
	h, ret := nvml.DeviceGetHandleByUUID(uuid)
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("umkit: NVML has no device %s: %s", uuid, nvml.ErrorString(ret))
	}
	if v, ret := nvml.SystemGetDriverVersion(); ret == nvml.SUCCESS {
		d.DriverVersion = v
	}
	if v, ret := h.GetCurrPcieLinkGeneration(); ret == nvml.SUCCESS {
		d.PCIeGeneration = v
	}
	if v, ret := h.GetCurrPcieLinkWidth(); ret == nvml.SUCCESS {
		d.PCIeWidth = v
	}
	if v, ret := h.GetNumaNodeId(); ret == nvml.SUCCESS {
		d.NUMANode = v
	}
	var cpus []int
	if set, ret := h.GetCpuAffinity(runtime.NumCPU()); ret == nvml.SUCCESS {
		cpus = nvmlguard.CPUs(set)
	}
	if v, ret := h.GetClockInfo(nvml.CLOCK_SM); ret == nvml.SUCCESS {
		d.SMClockMHz = int(v)
	}
	if v, ret := h.GetClockInfo(nvml.CLOCK_MEM); ret == nvml.SUCCESS {
		d.MemClockMHz = int(v)
	}
	if v, ret := h.GetMaxClockInfo(nvml.CLOCK_SM); ret == nvml.SUCCESS {
		d.MaxSMClockMHz = int(v)
	}
	if v, ret := h.GetCurrentClocksEventReasons(); ret == nvml.SUCCESS {
		d.ThrottleReasons = throttleString(v)
	}
	return cpus, nil
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
