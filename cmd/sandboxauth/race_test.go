//go:build race

package main

// raceEnabled: the tests run with -race, so TestMain builds the binary with
// -race too.
const raceEnabled = true
