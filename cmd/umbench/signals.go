package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitNow ends the process at a second interrupt; tests replace it.
var exitNow = os.Exit

// interruptible returns a context that the first SIGINT or SIGTERM
// cancels: the run stops at its next safe point (between trials) and keeps
// every finished configuration. A second signal exits at once (status
// 130): finished configurations are already synced to disk, and the run in
// progress is measured again whole on --resume. The signals are taken by a
// goroutine of their own, so a main goroutine blocked in the driver never
// makes umbench ignore them. stop undoes it.
func interruptible(stderr io.Writer, dir string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case s := <-ch:
			fmt.Fprintf(stderr, "\numbench: %v: stopping after the current trial; every finished configuration is kept. "+
				"Interrupt again to exit at once\n", s)
			cancel()
		}
		select {
		case <-done:
		case s := <-ch:
			fmt.Fprintf(stderr, "\numbench: %v again: exiting now; every finished configuration is in %s "+
				"(continue with: umbench run --out %s --resume)\n", s, dir, dir)
			exitNow(130)
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}
