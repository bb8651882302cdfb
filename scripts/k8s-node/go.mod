module agent-farm/k8s-node

go 1.22.0

require github.com/cloudnativelabs/kube-router/v2 v2.1.0
