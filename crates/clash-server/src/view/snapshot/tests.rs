use super::*;
use serde_json::json;

#[test]
fn an_update_is_the_picture_with_the_lines_and_the_receipt() {
    let lines = vec![SeenEntry {
        index: 4,
        event: None,
        table: Some(TableEvent::Closed),
        text: "The GM ends the table.".into(),
        reveals: false,
        news: false,
    }];
    let receipt = Receipt {
        n: 2,
        id: None,
        duplicate: false,
    };
    let text = assemble(r#"{"a":1,"b":[2]}"#, &lines, Some(&receipt));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["a"], 1);
    assert_eq!(v["b"], json!([2]));
    assert_eq!(v["events"][0]["index"], 4);
    assert_eq!(v["command"]["n"], 2);
    let bare: Value = serde_json::from_str(&assemble("{}", &[], None)).unwrap();
    assert_eq!(bare, json!({"events": []}));
}
