# 训练面板根据一次运行的数值计算出的句子（见 src/model/messages/mod.rs）。术语见 ../glossary-zh.md。
