module github.com/pallas-ls/pallas-ls

go 1.26
