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

  // Lowest set index, as a tree of pairs (IdxW levels of 2:1 selects; a node takes its lower
  // half's index when that half has a bit set): written as a chain of N ifs, its depth stayed
  // in the netlist, as ABC maps for area when the clock allows (issue #26). 0 for none.
  localparam int P = 1 << IdxW;  // leaves, N padded to a power of two
  function automatic logic [IdxW-1:0] lowest_set(logic [N-1:0] v);
    logic [2*P-1:0]      any;  // node k: a bit set below it (root 1, leaf j at P + j)
    logic [2*P*IdxW-1:0] idx;  // node k's lowest set index
    any = '0;
    idx = '0;
    for (int j = 0; j < N; j++) begin
      any[P + j]              = v[j];
      idx[(P + j)*IdxW +: IdxW] = IdxW'(j);
    end
    for (int k = P - 1; k >= 1; k--) begin
      any[k]              = any[2*k] | any[2*k + 1];
      idx[k*IdxW +: IdxW] = any[2*k] ? idx[2*k*IdxW +: IdxW] : idx[(2*k + 1)*IdxW +: IdxW];
    end
    lowest_set = any[1] ? idx[IdxW +: IdxW] : '0;
  endfunction

  assign upper_idx = lowest_set(upper);
  assign low_idx   = lowest_set(vec_i);

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
      assert ((vec_i & ((N'(1) << idx_o) - N'(1)) & ~((N'(1) << start_i) - N'(1))) == '0 ||
              (Wrap && idx_o < start_i))
        else $error("find_next_set: a set bit between the start and idx_o");
    end
    if (!Wrap && found_o) begin
      assert (idx_o >= start_i) else $error("find_next_set: answer below start");
    end
  end
`endif

endmodule
