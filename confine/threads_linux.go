package confine

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// onRetiredThread runs f, without waiting for it, on a goroutine locked to
// an OS thread that is not the process's main thread and that ends when f
// returns: the goroutine never unlocks it, so the runtime retires the
// thread rather than reusing it. What f does to its thread (a Landlock
// domain, the parent-death signal of a child started from it) therefore
// never reaches another goroutine, and lasts exactly as long as f.
//
// The main thread is the exception to retirement: the runtime never ends
// it. A goroutine that finds itself there hands f to a fresh goroutine,
// which cannot run on the main thread while this one holds it, and
// unlocks the main thread once the fresh one holds a thread of its own.
func onRetiredThread(f func()) {
	go func() {
		runtime.LockOSThread()
		if unix.Gettid() != unix.Getpid() {
			f()
			return
		}
		locked := make(chan struct{})
		go func() {
			runtime.LockOSThread()
			close(locked)
			f()
		}()
		<-locked
		runtime.UnlockOSThread()
	}()
}
