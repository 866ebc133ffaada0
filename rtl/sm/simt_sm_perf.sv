// Performance counters (docs/blocks/sm.md, "Performance counters"): one 32-bit counter per
// event of simt_sm_pkg (PerfCycles .. PerfIdleOther), each incremented by the units' event
// pulses, PerfThreads by the executing threads of the retiring instruction. Read by number.
// A counter whose event a build cannot raise (Present's bit 0: counters 16-21 are counted
// outside, the L1's without an L1, the sender's without one) keeps no flip-flops and reads 0.
module simt_sm_perf #(
  parameter logic [simt_sm_pkg::NumPerf-1:0] Present = '1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [simt_sm_pkg::NumPerf-1:0] evt_i,
  input  logic [5:0]                      threads_i,
  input  logic [4:0]                      sel_i,
  output logic [31:0]                     count_o
);

  localparam int NumPerf = simt_sm_pkg::NumPerf;

  logic [31:0] count_d [NumPerf];
  logic [31:0] count_q [NumPerf];

  always_comb begin
    for (int i = 0; i < NumPerf; i++) begin
      count_d[i] = count_q[i];
      if (evt_i[i]) begin
        count_d[i] = count_q[i] + ((i == simt_sm_pkg::PerfThreads) ? {26'd0, threads_i} : 32'd1);
      end
      if (!Present[i]) count_d[i] = '0;  // (a constant register: synthesis removes it)
    end
  end

  assign count_o = (32'(sel_i) < 32'(NumPerf)) ? count_q[sel_i] : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NumPerf; i++) count_q[i] <= '0;
    end else begin
      for (int i = 0; i < NumPerf; i++) count_q[i] <= count_d[i];
    end
  end

`ifdef VERILATOR
  // The idle reasons split the idle count; an absent counter's event never comes.
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert ((evt_i & ~Present) == '0)
        else $error("sm perf: an event %b of a counter the build leaves out", evt_i & ~Present);
      assert (count_q[simt_sm_pkg::PerfIdle] == count_q[simt_sm_pkg::PerfIdleBarrier] +
              count_q[simt_sm_pkg::PerfIdleQueue] + count_q[simt_sm_pkg::PerfIdleMem] +
              count_q[simt_sm_pkg::PerfIdleOther])
        else $error("sm: idle reasons do not add up to the idle cycles");
    end
  end
`endif

endmodule
