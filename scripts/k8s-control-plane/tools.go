//go:build tools

// The Kubernetes commands the control plane runs; imported here only so that go.mod and go.sum pin them.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "helm.sh/helm/v3/cmd/helm"
)
