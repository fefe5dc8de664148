module github.com/sandboxauth/sandboxauth

go 1.24

require (
	github.com/stretchr/testify v1.12.1 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
