package hookproto

import (
	"encoding/json"
	"sort"
	"strings"
)

// Agent is one agent's hook protocol.
type Agent interface {
	// Name is the agent's name on the command line: "claude-code",
	// "codex", "gemini-cli", "cursor" or "copilot".
	Name() string
	// Decode reads one pre-tool event. Every error matches ErrMalformed.
	Decode(payload []byte) (*Request, error)
	// Encode writes d as the agent's answer to the event req. req is nil
	// when the event could not be decoded; the answer is then the
	// protocol's explicit deny whatever d says, since nothing is known
	// about the call.
	Encode(req *Request, d Decision) Answer
}

// agents lists the protocols by name.
func agents() []Agent {
	return []Agent{claudeCode{}, codex{}, geminiCLI{}, cursor{}, copilot{}}
}

// Lookup returns the protocol of the named agent.
func Lookup(name string) (Agent, bool) {
	for _, a := range agents() {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}

// Names returns the agents' names, sorted.
func Names() []string {
	var out []string
	for _, a := range agents() {
		out = append(out, a.Name())
	}
	sort.Strings(out)
	return out
}

// settle fills in what every encoder needs: a reason for asks and denies,
// and a deny in place of an ask the event cannot hand to a person, or of
// anything at all when the event was not understood.
func settle(req *Request, d Decision) Decision {
	if req == nil {
		if d.Action != Deny || d.Reason == "" {
			d = Decision{Action: Deny, Reason: "sandboxauth: the hook event could not be read, so the tool call was refused."}
		}
		return d
	}
	if d.Command != "" && (d.Action != Allow || !req.CanRewrite) {
		// A rewrite the agent would not carry out would let the original
		// command run as it stands.
		return Decision{Action: Deny, Reason: "sandboxauth: the hook meant to run this command confined, but this " + req.Agent + " event (" + req.Event + ", tool " + req.Tool + ") cannot change the command, so the call was refused. Report this to the person running the agent."}
	}
	switch d.Action {
	case Allow:
		d.Reason = ""
	case Ask:
		if d.Reason == "" {
			d.Reason = "sandboxauth: this call needs a person's approval."
		}
		if !req.CanAsk {
			d = Decision{Action: Deny, Reason: askAsDeny(req, d.Reason)}
		}
	default:
		d.Action = Deny
		if strings.TrimSpace(d.Reason) == "" {
			d.Reason = "sandboxauth: the tool call was refused."
		}
	}
	return d
}

// askAsDeny is the refusal given where an event cannot ask a person: the
// question's reason turned into a refusal (the call "was refused", not
// "needs your approval"), what would let it run, and how to change the
// policy concretely for the kind of call it is.
func askAsDeny(req *Request, why string) string {
	why = strings.TrimRight(why, ". ")
	why = strings.Replace(why, " needs your approval: ", " was refused: ", 1)
	return why + ". This " + req.Agent + " hook event (" + req.Event + ") cannot ask a person, and sandboxauth asks a person about such calls. " +
		howToAllow(req.Kind) + " Continue without it, or stop and say what you need."
}

// userPolicyFile names the user's policy file where a refusal says how to
// change it.
const userPolicyFile = "the user's policy file (sandboxauth/config.json in the user configuration directory, ~/.config/sandboxauth/config.json on Linux)"

// howToAllow says what would let a call of kind k that sandboxauth asks
// about run without a person: a safe entry for a command, the removal of a
// protected path for a file, a tool policy for any other tool.
func howToAllow(k Kind) string {
	switch k {
	case KindShell:
		return "A person can run it themselves, or let such commands run by adding a safe entry to " + userPolicyFile +
			`, for example {"commands": {"safe": {"add": [{"command": "make", "args": ["test"]}]}}}; ` +
			"`sandboxauth check --config FILE -- COMMAND` shows the rule that decided."
	case KindRead, KindWrite, KindEdit, KindSearch:
		return "A person can do it themselves, or let such calls run by removing the protected path's pattern in " + userPolicyFile +
			`, for example {"protectedPaths": {"remove": [".env"]}}; ` + "`sandboxauth defaults protected` lists the patterns."
	default:
		return "A person can let the tool run with a tool policy (\"tools\") in " + userPolicyFile + "."
	}
}

// fields is a decoded JSON object whose members are read on demand.
type fields struct {
	where string // the object's name in messages: "event", "tool_input"
	m     map[string]json.RawMessage
}

// object decodes data as a JSON object.
func object(where string, data []byte) (fields, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return fields{}, malformed("%s is not a JSON object: %v", where, err)
	}
	if m == nil {
		return fields{}, malformed("%s is null, not a JSON object", where)
	}
	return fields{where: where, m: m}, nil
}

// has reports whether the member is present and not null.
func (f fields) has(key string) bool {
	raw, ok := f.m[key]
	return ok && string(raw) != "null"
}

// str returns a required string member.
func (f fields) str(key string) (string, error) {
	s, ok, err := f.optStr(key)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", malformed("%s.%s is missing", f.where, key)
	}
	return s, nil
}

// optStr returns a string member that may be absent or null.
func (f fields) optStr(key string) (string, bool, error) {
	if !f.has(key) {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(f.m[key], &s); err != nil {
		return "", false, malformed("%s.%s is not a string", f.where, key)
	}
	return s, true, nil
}

// strList returns a member that is a list of strings, absent or null
// giving nil.
func (f fields) strList(key string) ([]string, error) {
	if !f.has(key) {
		return nil, nil
	}
	var l []string
	if err := json.Unmarshal(f.m[key], &l); err != nil {
		return nil, malformed("%s.%s is not a list of strings", f.where, key)
	}
	return l, nil
}

// obj returns a required member that is a JSON object.
func (f fields) obj(key string) (fields, error) {
	if !f.has(key) {
		return fields{}, malformed("%s.%s is missing", f.where, key)
	}
	return object(f.where+"."+key, f.m[key])
}

// marshal encodes v as one line of JSON. The values encoded here are maps
// and structs of strings, which always encode.
func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// header reads the fields every agent's event has under its own names: the
// tool (non-empty), the absolute working directory (also the project
// directory) and the optional session id.
func (f fields) header(req *Request, toolKey, sessionKey string) error {
	var err error
	if req.Tool, err = f.str(toolKey); err != nil {
		return err
	}
	if req.Tool == "" {
		return malformed("event.%s is empty", toolKey)
	}
	cwd, err := f.str("cwd")
	if err != nil {
		return err
	}
	if req.Cwd, err = absDir("event.cwd", cwd); err != nil {
		return err
	}
	req.ProjectDir = req.Cwd
	req.Session, _, err = f.optStr(sessionKey)
	return err
}
