package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// aliasOf is the annotation that names the flag an old flag name stands for.
const aliasOf = "alias-of"

// aliasFlag keeps the old name of a renamed flag working, so scripts and --config
// files written for it do not break: it sets the same value as --name and is hidden
// from help; warnOldFlagNames says the new name when it is used. A result file
// records both names, with one value.
func aliasFlag(fs *pflag.FlagSet, old, name string) {
	f := fs.Lookup(name)
	fs.AddFlag(&pflag.Flag{Name: old, Usage: f.Usage, Value: f.Value, DefValue: f.DefValue, Hidden: true,
		Annotations: map[string][]string{aliasOf: {name}}})
}

// aliasTarget is the flag that f stands for when f is an old name, else f.
func aliasTarget(fs *pflag.FlagSet, f *pflag.Flag) *pflag.Flag {
	if a := f.Annotations[aliasOf]; len(a) == 1 {
		if t := fs.Lookup(a[0]); t != nil {
			return t
		}
	}
	return f
}

// warnOldFlagNames writes a line to w for each old flag name given. It is not
// pflag's deprecation notice, which cobra prints on the command's output: the
// output of `schema` is a script.
func warnOldFlagNames(fs *pflag.FlagSet, w io.Writer) {
	fs.Visit(func(f *pflag.Flag) {
		if t := aliasTarget(fs, f); t != f {
			fmt.Fprintf(w, "brokerbench: --%s is an old name of --%s: use --%s\n", f.Name, t.Name, t.Name)
		}
	})
}

// given is whether f was set on the command line, under its name or an old one.
func given(fs *pflag.FlagSet, f *pflag.Flag) bool {
	set := f.Changed
	fs.Visit(func(o *pflag.Flag) { set = set || aliasTarget(fs, o) == f })
	return set
}
