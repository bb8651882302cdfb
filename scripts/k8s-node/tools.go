//go:build tools

// kube-router, run by the tests' real node as a NetworkPolicy controller only; imported here so that go.mod and
// go.sum pin it.
package tools

import (
	_ "github.com/cloudnativelabs/kube-router/v2/cmd/kube-router"
)
