// Round-robin arbiter: grants the first requester at or after the one following the last
// accepted grant. The pointer moves only when the grant is taken (ack_i), so a requester
// that keeps its request is served within N grants (no starvation).
module simt_rr_arbiter #(
  parameter int N = 8,
  localparam int IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            ack_i,      // the grant of this cycle is taken
  output logic            valid_o,    // some request is granted
  output logic [N-1:0]    gnt_o,      // one-hot grant
  output logic [IdxW-1:0] gnt_idx_o
);

  logic [IdxW-1:0] ptr_d, ptr_q;  // highest priority index this cycle

  simt_find_next_set #(
    .N    (N),
    .Wrap (1'b1)
  ) u_pick (
    .vec_i   (req_i),
    .start_i (ptr_q),
    .found_o (valid_o),
    .idx_o   (gnt_idx_o)
  );

  always_comb begin
    gnt_o = '0;
    if (valid_o) gnt_o[gnt_idx_o] = 1'b1;
  end

  always_comb begin
    ptr_d = ptr_q;
    if (valid_o && ack_i) begin
      ptr_d = (gnt_idx_o == IdxW'(N - 1)) ? '0 : gnt_idx_o + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ptr_q <= '0;
    else         ptr_q <= ptr_d;
  end

`ifdef VERILATOR
  always_comb begin
    assert ($onehot0(gnt_o)) else $error("rr_arbiter: grant not one-hot");
    assert ((gnt_o & ~req_i) == '0) else $error("rr_arbiter: grant without request");
    assert (valid_o == (req_i != '0)) else $error("rr_arbiter: request not granted");
  end
`endif

`ifdef FORMAL
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert ((gnt_o & ~req_i) == '0);
      assert (valid_o == (req_i != '0));
      assert ((gnt_o & (gnt_o - 1'b1)) == '0);
      assert (ptr_q <= IdxW'(N - 1));
    end
  end
`endif

endmodule
