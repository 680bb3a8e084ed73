module example.com/gokit

go 1.19
