package sandboxauth

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkAskAllow measures one whole call that asks a person: a read
// inside the sandbox with requestPermission=true (path resolution, prompt,
// request, hand-off to the host goroutine, Allow, wake-up).
func BenchmarkAskAllow(b *testing.B) {
	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	if err != nil {
		b.Fatal(err)
	}
	host := make(chan struct{})
	go func() {
		defer close(host)
		for req := range ch {
			req.Allow()
		}
	}()
	dir := b.TempDir()
	path := filepath.Join(dir, "file.txt")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := a.IsAuthorizedForRead(true, "the reason", "read_file", dir, path); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	a.Close()
	<-host
}

// BenchmarkBrokerAskAllow measures the broker alone: send a request, have
// the host goroutine Allow it, and wake the caller.
func BenchmarkBrokerAskAllow(b *testing.B) {
	br := newBroker(16)
	host := make(chan struct{})
	go func() {
		defer close(host)
		for req := range br.requests {
			req.Allow()
		}
	}()
	ctx := context.Background()
	req := UserRequest{Prompt: "may I?", Operation: OpRead}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if s := br.ask(ctx, req, 0, nil); s != stateAllowed {
			b.Fatalf("state %d", s)
		}
	}
	b.StopTimer()
	br.close()
	<-host
}
