package main

import (
	"errors"
	"fmt"

	"github.com/sandboxauth/sandboxauth"
)

// policyNames are the policies check reports on, in order, and the values
// of --policy.
var policyNames = []string{"sandbox", "permissive", "autoapprove"}

// decision is what a policy does with a call.
type decision string

const (
	decAllow   decision = "allow"
	decAsk     decision = "ask"
	decDeny    decision = "deny"
	decInvalid decision = "invalid" // the call is malformed (not a refusal, never authorized)
)

// verdict is one policy's observed decision and why.
type verdict struct {
	Policy   string   `json:"policy"`
	Decision decision `json:"decision"`
	// Reason is why the policy asks (the request's Rule), or the error the
	// model would read for a refusal; empty for an allow.
	Reason string `json:"reason,omitempty"`
	// Prompt is the question a person would have been shown.
	Prompt string `json:"prompt,omitempty"`
}

// observer holds one authorizer of each policy and decides calls by really
// calling them, answering every question with Disallow.
type observer struct {
	policies []observed
}

type observed struct {
	name     string
	authz    sandboxauth.Authorizer
	requests <-chan sandboxauth.UserRequest // closed for autoapprove
}

// newObserver builds the three authorizers of cfg over commands: the
// configuration's options and tool policy apply to each.
func newObserver(cfg *sandboxauth.Config, commands *sandboxauth.ShellAllowedCommands) (*observer, error) {
	o := &observer{}
	for _, name := range policyNames {
		a, ch, err := cfg.NewPolicyAuthorizer(name, commands)
		if err != nil {
			o.close()
			return nil, err
		}
		o.policies = append(o.policies, observed{name, a, ch})
	}
	return o, nil
}

func (o *observer) close() {
	for _, p := range o.policies {
		p.authz.Close()
	}
}

// classify returns the class the sandbox policy's authorizer acts on:
// its command lists and the configured protected paths.
func (o *observer) classify(sandbox, cwd string, argv []string) (sandboxauth.Classification, error) {
	for _, p := range o.policies {
		if cc, ok := p.authz.(sandboxauth.CommandClassifier); ok {
			return cc.ClassifyCommand(sandbox, cwd, argv)
		}
	}
	return sandboxauth.Classification{}, errors.New("no policy classifies commands")
}

// shell returns what each policy does with the shell command argv run in
// cwd inside sandbox.
func (o *observer) shell(sandbox, cwd string, argv []string) []verdict {
	out := make([]verdict, 0, len(o.policies))
	for _, p := range o.policies {
		out = append(out, observe(p, func(a sandboxauth.Authorizer) error {
			return a.IsShellAuthorized(false, "", sandbox, cwd, argv)
		}))
	}
	return out
}

// observe runs call against p's authorizer in a goroutine while this one
// plays the person: a request that arrives is recorded and answered with
// Disallow, so that "ask" is what the authorizer did, not a guess.
func observe(p observed, call func(sandboxauth.Authorizer) error) verdict {
	done := make(chan error, 1)
	go func() { done <- call(p.authz) }()
	requests := p.requests
	var asked *sandboxauth.UserRequest
	for {
		select {
		case req, ok := <-requests:
			if !ok {
				requests = nil
				continue
			}
			if asked == nil {
				r := req
				asked = &r
			}
			req.Disallow()
		case err := <-done:
			return verdictOf(p.name, asked, err)
		}
	}
}

func verdictOf(policy string, asked *sandboxauth.UserRequest, err error) verdict {
	v := verdict{Policy: policy}
	switch {
	case asked != nil:
		v.Decision, v.Reason, v.Prompt = decAsk, asked.Rule, asked.Prompt
	case err == nil:
		v.Decision = decAllow
	case errors.Is(err, sandboxauth.ErrDenied):
		v.Decision, v.Reason = decDeny, err.Error()
	default:
		v.Decision, v.Reason = decInvalid, err.Error()
	}
	return v
}

// exitCode is the exit status a decision gives: allow 0, ask 1, deny 2,
// and 3 for a malformed call (an input error). Statuses of several
// commands combine with max.
func (d decision) exitCode() int {
	switch d {
	case decAllow:
		return exitOK
	case decAsk:
		return exitAsk
	case decDeny:
		return exitDeny
	}
	return exitUsage
}

func verdictFor(vs []verdict, policy string) verdict {
	for _, v := range vs {
		if v.Policy == policy {
			return v
		}
	}
	panic(fmt.Sprintf("no verdict for policy %q", policy))
}
