# 页面的 wasm 根据数值计算出的句子（见 src/model/messages/mod.rs）。术语见 ../glossary-zh.md。

messages-selftest = { $count } 个句子
