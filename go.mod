module github.com/coordcheck/coordcheck

go 1.26.8

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/stretchr/testify v1.12.1
	pgregory.net/rapid v1.3.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
