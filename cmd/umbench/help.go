package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpWidth is the width of every help text (issue 35).
const helpWidth = 100

// usageTemplate is the one layout of every command's help: the usage line,
// the commands (for umbench itself), the flags wrapped to helpWidth, and
// examples where a command has them.
const usageTemplate = `Usage: {{if .HasAvailableSubCommands}}{{.CommandPath}} <command> [flags]{{else}}{{.UseLine}}{{end}}
{{- if .HasAvailableSubCommands}}

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding}} {{.Short}}{{end}}{{end}}{{end}}
{{- if .HasAvailableLocalFlags}}

Flags:
{{flagUsages .}}{{end}}
{{- if .HasExample}}

Examples:
{{.Example}}{{end}}
{{- if .HasAvailableSubCommands}}

Run 'umbench <command> --help' for a command's flags.{{end}}
`

func setHelp(root *cobra.Command) {
	cobra.AddTemplateFunc("flagUsages", func(c *cobra.Command) string {
		return strings.TrimRight(c.LocalFlags().FlagUsagesWrapped(helpWidth), "\n")
	})
	root.SetUsageTemplate(usageTemplate)
	root.SetHelpTemplate("{{with (or .Long .Short)}}{{.}}\n\n{{end}}{{.UsageString}}")
}

// vetFlags refuses a --format (addFormat) outside its allowed values,
// and catches a flag that took the next flag as its value because its
// own was missing (umbench run --out --resume): the flag package would
// silently write the results to a directory named "--resume".
func vetFlags(c *cobra.Command) error {
	fs := c.Flags()
	var err error
	fs.Visit(func(f *pflag.Flag) {
		v := f.Value.String()
		if err != nil || !strings.HasPrefix(v, "-") || f.Value.Type() == "bool" {
			return
		}
		name, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
		if fs.Lookup(name) != nil {
			err = usagef("flag --%s needs a value, but got the flag %s", f.Name, v)
		}
	})
	if f := fs.Lookup("format"); err == nil && f != nil && f.Annotations[allowedValues] != nil {
		err = oneOf(f.Name, f.Value.String(), f.Annotations[allowedValues]...)
	}
	return err
}

// allowedValues annotates a flag with the values vetFlags allows.
const allowedValues = "umbench_allowed"

// addFormat adds --format: its first allowed value is the default.
func addFormat(c *cobra.Command, p *string, allowed ...string) {
	n := len(allowed)
	c.Flags().StringVar(p, "format", allowed[0], strings.Join(allowed[:n-1], ", ")+" or "+allowed[n-1])
	c.Flags().SetAnnotation("format", allowedValues, allowed)
}

// isSet reports whether the flag was given on the command line.
func isSet(c *cobra.Command, name string) bool { return c.Flags().Changed(name) }

// noArgs is cobra.NoArgs as a usage error (exit 2).
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments (got %q)", c.Name(), args)
	}
	return nil
}

// oneOf checks an enumerated flag's value.
func oneOf(flag, v string, allowed ...string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return usagef("--%s %q: allowed %s", flag, v, strings.Join(allowed, ", "))
}

// maxArgs is cobra.MaximumNArgs as a usage error (exit 2).
func maxArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) > n {
			return usagef("%s reads one results directory or dataset; got %d: %s", c.Name(), len(args), strings.Join(args, ", "))
		}
		return nil
	}
}
