use pe_lab_train::{Encoding, Task, TrainConfig, Trainer};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let task = Task::from_link(&args[1]).unwrap();
    let steps: usize = args[2].parse().unwrap();
    let causal = args.get(3).is_some_and(|a| a == "causal");
    for encoding in Encoding::ALL {
        let tn: usize = std::env::var("TN")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(16);
        let vocab: usize = std::env::var("V")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(16);
        let mlp = std::env::var("MLP").is_ok();
        let config = TrainConfig {
            task,
            steps,
            causal,
            encoding,
            train_length: tn,
            vocab,
            mlp,
            ..TrainConfig::default()
        };
        let mut t = Trainer::new(config).unwrap();
        let mut loss = 0.0;
        let mut first95 = None;
        for s in 0..steps {
            loss = t.step();
            if s % 50 == 49 && first95.is_none() && t.evaluate(tn, 64, 5).unwrap() >= 0.95 {
                first95 = Some(s + 1);
            }
        }
        let acc: Vec<String> = [8, 16, 32, 64]
            .iter()
            .map(|&n| format!("{:.3}", t.evaluate(n, 256, 9).unwrap()))
            .collect();
        println!(
            "{:>10} loss {loss:.3} acc@8,16,32,64 {:?} first>=95% {:?}",
            encoding.link_name(),
            acc,
            first95
        );
    }
}
