package results

import "runtime/debug"

// BinaryBuild describes the running binary, from Go's build information.
type BinaryBuild struct {
	Module    string // module version, "(devel)" for a build from a work tree
	Commit    string // VCS revision; "" when built without VCS stamping (-buildvcs=false)
	Modified  bool   // built from a work tree with uncommitted changes
	GoVersion string
}

// ReadBuild reads the running binary's build information.
func ReadBuild() BinaryBuild {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return BinaryBuild{Module: "unknown"}
	}
	b := BinaryBuild{Module: bi.Main.Version, GoVersion: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}
