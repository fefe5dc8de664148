package toolpolicy

// FilterNames returns, in order, the names the policy allows. The input is
// not modified; names are returned as given, not normalized.
func (p *Policy) FilterNames(names []string) []string {
	return Filter(p, names, func(s string) string { return s })
}

// Filter returns, in order, the tools whose name the policy allows. The
// input is not modified. name extracts a tool's name; it is called once
// per tool.
func Filter[T any](p *Policy, tools []T, name func(T) string) []T {
	out := make([]T, 0, len(tools))
	for _, t := range tools {
		if p.Allowed(name(t)) {
			out = append(out, t)
		}
	}
	return out
}
