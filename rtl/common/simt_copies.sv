// Copies of one register for its fan-out (issue #26): a select that steers a 32-thread bus is
// one net to a thousand or more sinks spread over the die, the worst nets of the routing. Each
// copy drives one thread's or lane's slice instead, and the copies' own net is short.
//
// Every copy is a flip-flop of its own that Yosys keeps ((* keep *) on each: opt_merge merges
// flip-flops with equal inputs, and keeps two apart only when both carry keep). The copies hold
// the same value at every cycle; users take copy c for their slice c. A bit loads d_i when its
// en_i is set and holds otherwise, each copy its own value: the enable is the flip-flop's
// (a clock enable on ECP5), so a late enable skips the hold's multiplexer.
module simt_copies #(
  parameter int              Width  = 1,
  parameter int              Copies = 2,
  parameter logic [Width-1:0] ResetValue = '0
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [Width-1:0]        en_i,
  input  logic [Width-1:0]        d_i,
  output logic [Copies*Width-1:0] q_o
);

  for (genvar c = 0; c < Copies; c++) begin : g_copy
    for (genvar b = 0; b < Width; b++) begin : g_bit
      logic q;
      (* keep *)
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)       q <= ResetValue[b];
        else if (en_i[b])  q <= d_i[b];
      end
      assign q_o[c*Width + b] = q;
    end
  end

endmodule
