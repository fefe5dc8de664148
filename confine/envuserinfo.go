package confine

import "strings"

// envWithoutUserinfo returns the variable name=value of the command's
// environment with the user name and password taken out of every URL in
// value (see Policy.HiddenEnvUserinfo): "http://me:pw@proxy:3128" is
// "http://proxy:3128". A value of a proxy variable (a name ending in
// PROXY, any case) without a scheme, as curl and most tools accept it
// ("me:pw@proxy:3128"), is an authority from its start.
func envWithoutUserinfo(name, value string) string {
	if !strings.Contains(value, "@") {
		return value
	}
	var b strings.Builder
	rest := value
	if !strings.Contains(value, "://") && strings.HasSuffix(strings.ToUpper(name), "PROXY") {
		rest = withoutUserinfo(rest)
	}
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i+3])
		rest = withoutUserinfo(rest[i+3:])
	}
}

// withoutUserinfo returns s, what follows a URL's "://", without the
// user and password that begin it ("me:pw@host/path" is "host/path").
// The authority ends at the first '/', '?', '#' or white space; a
// password with a raw '/' in it (a ':' followed by more than a port
// before the first '/') is taken out up to the first '@' after it as
// well, so that no part of it stays.
func withoutUserinfo(s string) string {
	end := strings.IndexAny(s, "?# \t\n")
	if end < 0 {
		end = len(s)
	}
	word := s[:end]
	slash := strings.IndexByte(word, '/')
	if slash < 0 {
		slash = len(word)
	}
	if at := strings.LastIndexByte(word[:slash], '@'); at >= 0 {
		return s[at+1:]
	}
	colon := strings.IndexByte(word[:slash], ':')
	if colon < 0 || strings.Trim(word[colon+1:slash], "0123456789") == "" {
		return s // no user, or a port
	}
	if at := strings.IndexByte(word[slash:], '@'); at >= 0 {
		return s[slash+at+1:]
	}
	return s
}
