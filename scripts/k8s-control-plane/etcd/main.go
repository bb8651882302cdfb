// etcd for the local control plane: the server's own entry point, built at the version go.mod pins.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
