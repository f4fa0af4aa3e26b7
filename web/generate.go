package web

//go:generate sh -c "go tool vugugen -skip-go-mod -skip-main . && sed -i '/TODO: implement capture/d' *_gen.go && gofmt -w *_gen.go"
