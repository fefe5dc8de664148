package pathres

// Within reports whether p is root itself or lies beneath it. It is a purely
// lexical test on component boundaries, meant for paths that [Resolve] has
// already made real: both must be clean absolute paths, as Resolve returns
// them. "/x/sb-evil" is not within "/x/sb", and "/" contains every absolute
// path. Within returns false when either argument is not absolute; for
// other unclean arguments (trailing slashes, "." or ".." components) its
// answer is unspecified but never panics.
func Within(root, p string) bool {
	if root == "" || p == "" || root[0] != '/' || p[0] != '/' {
		return false
	}
	if root == "/" {
		return true
	}
	if len(p) < len(root) || p[:len(root)] != root {
		return false
	}
	return len(p) == len(root) || p[len(root)] == '/'
}
