package programs

import "sync"

// jvmNames are the JVM's launcher and compiler, which take long options
// with one dash (-cp, -classpath, -jar) and do not bundle: a list matcher
// for them reads options that way (MatcherSyntax). They have no spec and
// are on no default list, so they are never safe. It is built on first use.
var jvmNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"java": true, "javac": true}
})
