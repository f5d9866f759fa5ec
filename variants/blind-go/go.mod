module blindgo

go 1.19
