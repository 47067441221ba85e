package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"time"
)

// parseFlags parses args into fl. A bad flag gets its error and a line
// saying how to list the flags, not the whole list; -h gets the list.
func parseFlags(fl *flag.FlagSet, args []string) error {
	usage := fl.Usage
	fl.Usage = func() {}
	err := fl.Parse(args)
	fl.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(fl.Output(), "Usage of %s:\n", fl.Name())
			fl.PrintDefaults()
		}
	case err != nil:
		fmt.Fprintf(fl.Output(), "mergecheck %s -h lists its flags\n", fl.Name())
	}
	return err
}

// durationFlag defines a duration flag whose error for a number without
// a unit says so ("5" is not five seconds: Go's own says "parse error").
func durationFlag(fl *flag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	d := value
	fl.Var((*duration)(&d), name, usage)
	return &d
}

type duration time.Duration

func (d *duration) String() string { return time.Duration(*d).String() }

func (d *duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		if _, numErr := strconv.ParseFloat(s, 64); numErr == nil {
			return fmt.Errorf("%q has no unit: write %ss, %sm or %sh", s, s, s, s)
		}
		return fmt.Errorf("%q is not a duration: write a number and a unit, as in 5s, 2m or 1h30m", s)
	}
	*d = duration(v)
	return nil
}
