package sandboxauth

// Version is the release of this module, as tagged in its repository and
// listed in CHANGELOG.md. The sandboxauth command prints it.
const Version = "v0.1.0"
