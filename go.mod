module github.com/sandboxauth/sandboxauth

go 1.24.0

require (
	github.com/creack/pty v1.1.24
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.40.0
	mvdan.cc/sh/v3 v3.12.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
