// Command yardstick is the floor a hook is measured against: a Go program
// that reads an agent's event on standard input, decodes it as JSON and
// exits. BenchmarkHookLatency runs it side by side with sandboxauth hook.
package main

import (
	"encoding/json"
	"os"
)

func main() {
	var event map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&event); err != nil {
		os.Exit(2)
	}
}
