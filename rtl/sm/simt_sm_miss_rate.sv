// Per-warp L1 access and miss counts over a recent window: what seed 001's mode choice reads
// (docs/blocks/sm.md, "Performance counters"). Each L1 decision (evt_lookup_o, evt_hit_o of
// simt_l1_cache) counts for warp_i, the warp of the request it decides (evt_id_o, looked up
// in the load/store unit's in-flight table: decisions may come after the instruction
// retired). When a
// warp's access count would pass 0xFFFF both counts halve first, so the ratio follows the
// recent past. A warp slot's counts clear at its launch.
module simt_sm_miss_rate #(
  parameter int  NumWarps = 8,
  localparam int WarpW    = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             lookup_i,    // an L1 decision this cycle ...
  input  logic             hit_i,       // ... a hit
  input  logic [WarpW-1:0] warp_i,      // the warp of the request decided
  input  logic             clr_i,       // a warp slot launches
  input  logic [WarpW-1:0] clr_warp_i,
  input  logic [WarpW-1:0] sel_i,
  output logic [15:0]      accesses_o,  // of warp sel_i
  output logic [15:0]      misses_o
);

  logic [15:0] acc_d [NumWarps];
  logic [15:0] acc_q [NumWarps];
  logic [15:0] miss_d [NumWarps];
  logic [15:0] miss_q [NumWarps];

  always_comb begin
    for (int i = 0; i < NumWarps; i++) begin
      acc_d[i]  = acc_q[i];
      miss_d[i] = miss_q[i];
      if (lookup_i && warp_i == WarpW'(i)) begin
        if (acc_q[i] == 16'hFFFF) begin
          acc_d[i]  = acc_q[i] >> 1;
          miss_d[i] = miss_q[i] >> 1;
        end
        acc_d[i]  = acc_d[i] + 16'd1;
        miss_d[i] = miss_d[i] + {15'd0, !hit_i};
      end
      if (clr_i && clr_warp_i == WarpW'(i)) begin
        acc_d[i]  = '0;
        miss_d[i] = '0;
      end
    end
  end

  assign accesses_o = acc_q[sel_i];
  assign misses_o   = miss_q[sel_i];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NumWarps; i++) begin
        acc_q[i]  <= '0;
        miss_q[i] <= '0;
      end
    end else begin
      for (int i = 0; i < NumWarps; i++) begin
        acc_q[i]  <= acc_d[i];
        miss_q[i] <= miss_d[i];
      end
    end
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      for (int i = 0; i < NumWarps; i++) begin
        assert (miss_q[i] <= acc_q[i]) else $error("miss_rate: more misses than accesses");
      end
    end
  end
`endif

endmodule
