package sandboxauth

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/sandboxauth/sandboxauth/codeunit"
)

// Bits recording what the host did to one request, set before it does it.
const (
	triedAllow    int32 = 1 << iota // Allow was (or is about to be) called
	triedDisallow                   // Disallow was (or is about to be) called
)

// stressConfig is one randomized run of the broker.
type stressConfig struct {
	seed      uint64
	workers   int           // goroutines making calls
	calls     int           // calls per worker
	buffer    int           // WithRequestBuffer
	timeout   time.Duration // WithPromptTimeout; 0: none
	wrapper   bool          // half the workers call through a CodeUnit wrapper
	closeAt   int           // Close once the host has received this many requests
	wrapAt    int           // close the wrapper once the host has received this many
	never     int           // the host never answers one request in never
	permissve bool          // Permissive policy instead of Sandbox
}

func (c stressConfig) String() string {
	return fmt.Sprintf("seed=%d workers=%d calls=%d buffer=%d timeout=%v wrapper=%v wrapAt=%d closeAt=%d never=1/%d permissive=%v",
		c.seed, c.workers, c.calls, c.buffer, c.timeout, c.wrapper, c.wrapAt, c.closeAt, c.never, c.permissve)
}

// TestBrokerStress makes thousands of calls from many goroutines against a
// host that answers at random and out of order (Allow, Disallow, both at
// once from different goroutines, twice, or never), and closes the
// authorizer at a random moment from several goroutines at once. Every call
// must return exactly once with an error its history allows:
//
//   - nil only if the host called Allow on its request (or it asked nobody);
//   - ErrAuthorizationDenied only if the host called Disallow;
//   - ErrAuthorizerClosed only once Close has been called;
//   - ErrPromptTimeout only if a prompt timeout is set;
//
// and nothing may panic, race, or leave a goroutine behind.
func TestBrokerStress(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	if testing.Short() {
		seeds = seeds[:2]
	}
	for _, seed := range seeds {
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		cfg := stressConfig{
			seed:      seed,
			workers:   16 + rng.IntN(48),
			calls:     40 + rng.IntN(80),
			buffer:    1 + rng.IntN(32),
			wrapper:   seed%2 == 0,
			permissve: seed%3 == 0,
		}
		if seed%4 == 3 {
			cfg.timeout = time.Duration(1+rng.IntN(5)) * time.Millisecond
		}
		cfg.closeAt = rng.IntN(cfg.workers * cfg.calls * 3 / 4)
		cfg.never = 10 + rng.IntN(200)
		cfg.wrapAt = rng.IntN(cfg.closeAt + 1)
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Logf("%v", cfg)
			runBrokerStress(t, cfg, rng)
		})
	}
}

func runBrokerStress(t *testing.T, cfg stressConfig, rng *rand.Rand) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	opts := []Option{WithRequestBuffer(cfg.buffer)}
	if cfg.timeout > 0 {
		opts = append(opts, WithPromptTimeout(cfg.timeout))
	}
	ctor := NewSandboxAuthorizer
	if cfg.permissve {
		ctor = NewPermissiveSandboxAuthorizer
	}
	a, ch, err := ctor(NewShellAllowedCommands(), opts...)
	require.NoError(t, err)
	dir := t.TempDir()
	var wrapper Authorizer = a
	if cfg.wrapper {
		unit, err := codeunit.NewCodeUnit("unit", dir)
		require.NoError(t, err)
		wrapper = NewCodeUnitAuthorizer(unit, a)
	}

	total := cfg.workers * cfg.calls
	tried := make([]atomic.Int32, total) // what the host did to request i
	returned := make([]atomic.Int32, total)
	results := make([]error, total) // written once by the call's own worker
	asked := make([]bool, total)    // the call needs a person; set by its worker
	viaWrapper := make([]bool, total)
	var closeCalled, wrapperClosed atomic.Bool

	// Close runs once the host has received closeAt requests, or when no
	// further request can come: every worker has finished or is blocked on
	// a request the host decided never to answer.
	trigger := make(chan struct{})
	var triggerOnce sync.Once
	fire := func() { triggerOnce.Do(func() { close(trigger) }) }
	var received, finished, stuck atomic.Int64
	// The wrapper is closed on its own, earlier; the fallback stays open.
	wrapTrigger := make(chan struct{})
	var wrapOnce sync.Once
	maybeFire := func() {
		if cfg.wrapper && received.Load() >= int64(cfg.wrapAt) {
			wrapOnce.Do(func() { close(wrapTrigger) })
		}
		if received.Load() >= int64(cfg.closeAt) || finished.Load()+stuck.Load() >= int64(cfg.workers) {
			fire()
		}
	}
	maybeFire()

	var bg sync.WaitGroup // every goroutine of the test
	var closers sync.WaitGroup
	if cfg.wrapper {
		bg.Add(1)
		go func() {
			defer bg.Done()
			select {
			case <-wrapTrigger:
			case <-trigger:
			}
			wrapperClosed.Store(true)
			wrapper.Close()
		}()
	}
	bg.Add(1)
	go func() {
		defer bg.Done()
		<-trigger
		for range 4 {
			closers.Add(1)
			go func() {
				defer closers.Done()
				closeCalled.Store(true)
				a.Close()
			}()
		}
		closers.Wait()
	}()

	// Workers: each makes its calls in turn, most of which ask a person.
	var workers sync.WaitGroup
	workerSeeds := make([]uint64, cfg.workers)
	for w := range workerSeeds {
		workerSeeds[w] = rng.Uint64()
	}
	for w := range cfg.workers {
		workers.Add(1)
		go func() {
			defer workers.Done()
			defer func() { finished.Add(1); maybeFire() }()
			wr := rand.New(rand.NewPCG(workerSeeds[w], 1))
			az := Authorizer(a)
			wrapped := cfg.wrapper && w%2 == 1
			if wrapped {
				az = wrapper
			}
			for k := range cfg.calls {
				id := w*cfg.calls + k
				name := "c" + strconv.Itoa(id)
				var err error
				kind := wr.IntN(10)
				asked[id] = kind != 0
				viaWrapper[id] = wrapped
				switch kind {
				case 0: // needs nobody
					err = az.IsAuthorizedForRead(false, "", "read_file", dir, filepath.Join(dir, name))
				case 1:
					err = az.IsAuthorizedForWrite(true, "need "+name, "edit_file", dir, filepath.Join(dir, name))
				default:
					err = askRead(az, dir, name)
				}
				results[id] = err
				returned[id].Add(1)
			}
		}()
	}

	// The host: receives requests, keeps a pool, and answers a random one
	// of the pool whenever nothing new is waiting, so answers come out of
	// order. Some requests are never answered.
	hostSeed := rng.Uint64()
	bg.Add(1)
	go func() {
		defer bg.Done()
		hr := rand.New(rand.NewPCG(hostSeed, 2))
		var answerers sync.WaitGroup
		defer answerers.Wait()
		var pool []UserRequest
		answer := func(req UserRequest) {
			id, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(req.Paths[0]), "c"))
			if err != nil {
				panic(err)
			}
			if hr.IntN(cfg.never) == 0 {
				// Never answered: its worker waits for Close (or the timeout).
				stuck.Add(1)
				maybeFire()
				return
			}
			switch hr.IntN(11) {
			case 1: // Allow and Disallow race from two goroutines
				tried[id].Or(triedAllow | triedDisallow)
				answerers.Add(2)
				go func() { defer answerers.Done(); req.Allow() }()
				go func() { defer answerers.Done(); req.Disallow() }()
			case 2: // answered twice, differently
				tried[id].Or(triedDisallow | triedAllow)
				req.Disallow()
				req.Allow()
			case 0, 3, 4: // answered from another goroutine
				tried[id].Or(triedAllow)
				answerers.Add(1)
				go func() { defer answerers.Done(); req.Allow() }()
			case 5, 6, 7:
				tried[id].Or(triedDisallow)
				req.Disallow()
			default:
				tried[id].Or(triedAllow)
				req.Allow()
				req.Allow()
			}
		}
		for {
			var req UserRequest
			var ok bool
			if len(pool) > 0 && hr.IntN(3) == 0 {
				select {
				case req, ok = <-ch:
				default:
					i := hr.IntN(len(pool))
					answer(pool[i])
					pool[i] = pool[len(pool)-1]
					pool = pool[:len(pool)-1]
					continue
				}
			} else if len(pool) > 0 {
				i := hr.IntN(len(pool))
				answer(pool[i])
				pool[i] = pool[len(pool)-1]
				pool = pool[:len(pool)-1]
				continue
			} else {
				req, ok = <-ch
			}
			if !ok {
				// Closed: answering what is left is a no-op.
				for _, req := range pool {
					answer(req)
				}
				return
			}
			pool = append(pool, req)
			received.Add(1)
			maybeFire()
		}
	}()

	if !waitTimeout(&workers, 60*time.Second) {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		fire() // release them so the test can end
		t.Fatalf("%v: workers did not finish; goroutines:\n%s", cfg, buf[:n])
	}
	fire() // in case no trigger fired: Close ends the host loop
	if !waitTimeout(&bg, 60*time.Second) {
		t.Fatalf("%v: host or closer did not finish after Close", cfg)
	}

	var nilN, deniedN, closedN, timeoutN int
	for id := range total {
		require.EqualValues(t, 1, returned[id].Load(), "call %d returned %d times", id, returned[id].Load())
		err := results[id]
		bits := tried[id].Load()
		switch {
		case err == nil:
			nilN++
			if asked[id] {
				require.NotZero(t, bits&triedAllow, "call %d allowed without Allow", id)
			}
		case errors.Is(err, ErrAuthorizationDenied):
			deniedN++
			require.True(t, asked[id], "call %d needed nobody but was refused by the user", id)
			require.NotZero(t, bits&triedDisallow, "call %d refused by the user without Disallow: %v", id, err)
			require.ErrorIs(t, err, ErrDenied)
		case errors.Is(err, ErrAuthorizerClosed):
			closedN++
			require.True(t, closeCalled.Load() || (viaWrapper[id] && wrapperClosed.Load()),
				"call %d refused as closed before Close", id)
			require.ErrorIs(t, err, ErrDenied)
		case errors.Is(err, ErrPromptTimeout):
			timeoutN++
			require.NotZero(t, cfg.timeout, "call %d timed out without a timeout", id)
			require.True(t, asked[id], "call %d needed nobody but timed out", id)
			require.ErrorIs(t, err, ErrDenied)
		default:
			t.Fatalf("call %d: unexpected error %v", id, err)
		}
	}
	t.Logf("%d calls: %d allowed, %d refused, %d closed, %d timed out; host received %d",
		total, nilN, deniedN, closedN, timeoutN, received.Load())
	require.Zero(t, pendingCalls(brokerOf(t, a)))
	requireClosedChannel(t, ch)
	requireClosedErr(t, askRead(wrapper, dir, "after"))
	if cfg.wrapper {
		require.True(t, wrapperClosed.Load())
	}
}

// TestBrokerStressNilNeedsAllow is the strict form of the stress test's nil
// rule: every call asks, so a nil result proves the host called Allow on
// that very request before Close released it.
func TestBrokerStressNilNeedsAllow(t *testing.T) {
	for _, seed := range []uint64{11, 12, 13} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			rng := rand.New(rand.NewPCG(seed, 0))
			const workers, calls = 32, 64
			a, ch, dir := newBrokerSandbox(t, WithRequestBuffer(1+rng.IntN(8)))
			closeAt := int64(rng.IntN(workers * calls))

			var allowed [workers * calls]atomic.Bool
			var received atomic.Int64
			var closeOnce sync.Once
			closeNow := func() { closeOnce.Do(a.Close) }

			var wg sync.WaitGroup
			results := make([]error, workers*calls)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range calls {
						id := w*calls + k
						results[id] = askRead(a, dir, strconv.Itoa(id))
					}
				}()
			}
			hostDone := make(chan struct{})
			go func() {
				defer close(hostDone)
				for req := range ch {
					id, _ := strconv.Atoi(filepath.Base(req.Paths[0]))
					if received.Add(1) >= closeAt {
						closeNow()
					}
					if id%2 == 0 {
						allowed[id].Store(true)
						req.Allow()
					} else {
						req.Disallow()
					}
				}
			}()
			require.True(t, waitTimeout(&wg, 60*time.Second), "workers did not finish")
			closeNow()
			<-hostDone
			for id, err := range results {
				switch {
				case err == nil:
					require.True(t, allowed[id].Load(), "call %d allowed without Allow", id)
				case errors.Is(err, ErrAuthorizationDenied):
					require.Equal(t, 1, id%2, "call %d refused by the user but allowed", id)
				default:
					requireClosedErr(t, err)
				}
			}
		})
	}
}

// waitTimeout waits for wg, giving up after d; it reports whether wg finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
