package toolpolicy

import "fmt"

// RuleKind tells what kind of rule decided a [Decision].
type RuleKind int

const (
	// RuleExact is an exact tool name in an allow or deny list.
	RuleExact RuleKind = iota + 1
	// RuleWildcard is a pattern with '*' somewhere, other than "*" alone.
	RuleWildcard
	// RuleAll is the pattern "*".
	RuleAll
	// RuleGroup is a "group:NAME" reference.
	RuleGroup
	// RuleRelated is a related-tool grant: the policy allows directly a
	// tool that grants this one (Rule names the granting tool; Layer is
	// the first layer whose allow list does not list this tool itself).
	RuleRelated
	// RuleNotListed is a layer whose allow list does not match the tool.
	RuleNotListed
	// RuleDefaultDeny is a policy in which no layer has an allow list.
	RuleDefaultDeny
	// RuleInvalidName is a name that is not a valid tool name.
	RuleInvalidName
)

var ruleKindNames = [...]string{
	RuleExact:       "exact",
	RuleWildcard:    "wildcard",
	RuleAll:         "all",
	RuleGroup:       "group",
	RuleRelated:     "related",
	RuleNotListed:   "not-listed",
	RuleDefaultDeny: "default-deny",
	RuleInvalidName: "invalid-name",
}

// String returns a short lower-case name for the kind.
func (k RuleKind) String() string {
	if k > 0 && int(k) < len(ruleKindNames) {
		return ruleKindNames[k]
	}
	return fmt.Sprintf("RuleKind(%d)", int(k))
}

// Decision explains why a policy allows or refuses a tool.
type Decision struct {
	// Tool is the canonical name (or the name as given, if invalid).
	Tool string
	// Allowed is the verdict; it always equals Policy.Allowed(Tool).
	Allowed bool
	// Layer names the deciding layer: for a refusal, the layer whose deny
	// list matched (deny lists are searched first, in layer order) or the
	// first layer whose allow list did not match; for a grant, the first
	// layer with an allow list, which matched (for RuleRelated, the first
	// layer that needed the grant). Empty for RuleDefaultDeny and
	// RuleInvalidName.
	Layer string
	// Rule is the deciding pattern as written (normalized), or for
	// RuleRelated the granting tool. Empty for the kinds that have none.
	Rule string
	// Kind tells what kind of rule decided.
	Kind RuleKind
	// Source locates the rule, e.g. tools.byProvider["openai"].deny[2].
	Source string
	// Reason is one sentence for a log or a model; it ends with Warning
	// when there is one.
	Reason string
	// Warning is what the resolution of the policy found suspicious, such
	// as an agent id the configuration does not list (see Query.AgentID),
	// or "".
	Warning string
}

// String returns Reason.
func (d Decision) String() string { return d.Reason }

// Explain returns the verdict for a tool and the layer and rule that
// decided it. It evaluates the layers one pattern at a time, in the order
// written, and agrees with [Policy.Allowed] on every name.
func (p *Policy) Explain(tool string) Decision {
	d := p.explain(tool)
	if w := p.Warning(); w != "" {
		d.Warning = w
		d.Reason += " (warning: " + w + ")"
	}
	return d
}

func (p *Policy) explain(tool string) Decision {
	name, ok := p.Normalize(tool)
	if !ok {
		return Decision{Tool: tool, Kind: RuleInvalidName,
			Reason: fmt.Sprintf("%q is not a valid tool name, so it is not allowed", tool)}
	}
	d := Decision{Tool: name}
	if p == nil {
		d.Kind = RuleDefaultDeny
		d.Reason = fmt.Sprintf("%q is not allowed: there is no policy", name)
		return d
	}
	// Deny first, in every layer.
	for _, l := range p.layers {
		if pt := firstMatch(l.deny, name); pt != nil {
			d.Layer, d.Rule, d.Kind, d.Source = l.name, pt.src, pt.kind.ruleKind(), pt.origin
			d.Reason = fmt.Sprintf("%q is denied by layer %s: deny rule %q (%s)", name, l.name, pt.src, pt.origin)
			return d
		}
	}
	// Then every allow list must match, directly or through a granter
	// that the layer's allow list matches and no layer denies.
	var first, related *Decision
	var miss *compiledLayer
	for i := range p.layers {
		l := &p.layers[i]
		if l.allow == nil {
			continue
		}
		if pt := firstMatch(l.allow, name); pt != nil {
			if first == nil {
				first = &Decision{Tool: name, Allowed: true, Layer: l.name, Rule: pt.src, Kind: pt.kind.ruleKind(), Source: pt.origin,
					Reason: fmt.Sprintf("%q is allowed by every layer; first granted by layer %s: allow rule %q (%s)", name, l.name, pt.src, pt.origin)}
			}
			continue
		}
		if g, pt := p.grantIn(l, name); pt != nil {
			if related == nil {
				related = &Decision{Tool: name, Allowed: true, Layer: l.name, Rule: g, Kind: RuleRelated, Source: pt.origin,
					Reason: fmt.Sprintf("%q is allowed because the policy allows the related tool %q, which grants it; layer %s does not list it itself but allows %q (%s)", name, g, l.name, g, pt.origin)}
			}
			continue
		}
		if miss == nil {
			miss = l
		}
	}
	if first == nil && related == nil && miss == nil {
		d.Kind = RuleDefaultDeny
		d.Reason = fmt.Sprintf("%q is not allowed: no layer has an allow list, so nothing is allowed", name)
		return d
	}
	if miss != nil {
		d.Layer, d.Kind = miss.name, RuleNotListed
		d.Reason = fmt.Sprintf("%q is not allowed: it is not in the allow list of layer %s", name, miss.name)
		return d
	}
	if related != nil {
		return *related
	}
	return *first
}

// grantIn returns a tool that grants name, is matched by the allow list of
// l and is denied by no layer, with the pattern that matched it; or nil.
func (p *Policy) grantIn(l *compiledLayer, name string) (string, *pattern) {
	for _, g := range p.reg.related[name] {
		if p.idx.direct(g).deny != 0 {
			continue
		}
		if pt := firstMatch(l.allow, g); pt != nil {
			return g, pt
		}
	}
	return "", nil
}

// firstMatch returns the first pattern matching name, or nil.
func firstMatch(ps []pattern, name string) *pattern {
	for i := range ps {
		if ps[i].matches(name) {
			return &ps[i]
		}
	}
	return nil
}
