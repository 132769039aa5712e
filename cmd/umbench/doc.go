// Command umbench measures, summarises and models CUDA Unified Memory on
// the GPU it runs on.
//
//	umbench info                     device, driver, UM capabilities, what will be waived
//	umbench list                     the benchmarks
//	umbench run [flags]              measure; results go to --out as they finish
//	umbench run --gpus all [flags]   one worker per GPU of this node (--concurrent: all at once)
//	umbench summary DIR|--dataset N  median table with quality flags
//	umbench model [--data DIR | --dataset N] [--format table|csv]
//	umbench advise --size 1GiB --reuse 4 [--data DIR | --dataset N]
//	umbench reproduce DIR|--dataset N  the paper's claims checked on a run, with verdicts
//	umbench report DIR|--dataset N --out F.html  one self-contained HTML report
//	umbench datasets                 the embedded datasets
//	umbench merge --out DIR DIR...   combine per-node and per-GPU results, saying what differs
//	umbench compare DIR...           each GPU's median against the fleet median, outliers flagged
//	umbench check --baseline D [DIR] this GPU (quick run) or DIR against a baseline; exit 1 on a regression
//
// Every command exits non-zero on failure and never panics on a missing
// driver or GPU.
//
// # Ownership and imports
//
// umbench owns only the command line: flags, output and exit codes.
// Library questions are answered by the packages: which data a name means
// (datasets.Resolve), summaries (results), the model (model), fleet merge
// and compare (fleet), the worker side of a node run (fleet/node) and
// measurements (umkit). It may import every umlab package; none imports it.
package main
