// Find the first set bit at or above a start index (find-next-set). With Wrap = 1 the search
// continues from bit 0 when nothing is set at or above the start (round-robin use); with
// Wrap = 0 it does not (logical-order thread select: "next participant after thread i").
// Purely combinational: one priority encoder over the masked vector, one over the whole.
module simt_find_next_set #(
  parameter int N    = 32,
  parameter bit Wrap = 1'b0,
  localparam int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]    vec_i,
  input  logic [IdxW-1:0] start_i,
  output logic            found_o,
  output logic [IdxW-1:0] idx_o
);

  logic [N-1:0]    upper;     // vec_i restricted to indices >= start_i
  logic            upper_any;
  logic [IdxW-1:0] upper_idx;
  logic [IdxW-1:0] low_idx;   // first set bit of the whole vector

  always_comb begin
    upper = '0;
    for (int i = 0; i < N; i++) begin
      upper[i] = vec_i[i] && (IdxW'(i) >= start_i);
    end
  end

  // Lowest set index: scan downwards so the last assignment wins.
  always_comb begin
    upper_idx = '0;
    low_idx   = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (upper[i]) upper_idx = IdxW'(i);
      if (vec_i[i]) low_idx = IdxW'(i);
    end
  end

  assign upper_any = |upper;

  always_comb begin
    found_o = upper_any;
    idx_o   = upper_idx;
    if (Wrap && !upper_any) begin
      found_o = |vec_i;
      idx_o   = low_idx;
    end
  end

`ifdef VERILATOR
  // The answer is a set bit, and no set bit lies between the start and the answer.
  always_comb begin
    if (found_o) begin
      assert (vec_i[idx_o]) else $error("find_next_set: idx_o names a clear bit");
    end
    if (!Wrap && found_o) begin
      assert (idx_o >= start_i) else $error("find_next_set: answer below start");
    end
  end
`endif

endmodule
