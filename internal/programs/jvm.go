package programs

// jvmNames are the JVM's launcher and compiler, which take long options
// with one dash (-cp, -classpath, -jar) and do not bundle. They have no
// spec: they run code (see projectcode.go).
var jvmNames = map[string]bool{"java": true, "javac": true}
