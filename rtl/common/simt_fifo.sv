// Synchronous FIFO with valid/ready on both sides. Depth entries of registers (small FIFOs:
// the barrier-ready queue, request buffers). A write to a full FIFO is refused by ready,
// never dropped; with PassThrough = 0 the output is always a stored entry.
module simt_fifo #(
  parameter int Width = 8,
  parameter int Depth = 4,
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int CntW = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,   // drop all entries
  input  logic             wvalid_i,
  output logic             wready_o,
  input  logic [Width-1:0] wdata_i,
  output logic             rvalid_o,
  input  logic             rready_i,
  output logic [Width-1:0] rdata_o,
  output logic [CntW-1:0]  count_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rptr_d, rptr_q, wptr_d, wptr_q;
  logic [CntW-1:0]  count_d, count_q;
  logic             do_write, do_read;

  assign wready_o = (count_q != CntW'(Depth));
  assign rvalid_o = (count_q != '0);
  assign rdata_o  = mem_q[rptr_q];
  assign count_o  = count_q;
  assign do_write = wvalid_i && wready_o && !flush_i;
  assign do_read  = rvalid_o && rready_i && !flush_i;

  function automatic logic [PtrW-1:0] next_ptr(logic [PtrW-1:0] p);
    next_ptr = (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
  endfunction

  always_comb begin
    rptr_d  = rptr_q;
    wptr_d  = wptr_q;
    count_d = count_q;
    if (flush_i) begin
      rptr_d  = '0;
      wptr_d  = '0;
      count_d = '0;
    end else begin
      if (do_write) wptr_d = next_ptr(wptr_q);
      if (do_read)  rptr_d = next_ptr(rptr_q);
      if (do_write && !do_read) count_d = count_q + 1'b1;
      if (do_read && !do_write) count_d = count_q - 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q  <= '0;
      wptr_q  <= '0;
      count_q <= '0;
    end else begin
      rptr_q  <= rptr_d;
      wptr_q  <= wptr_d;
      count_q <= count_d;
    end
  end

  // Storage without reset so it can map to RAM.
  always_ff @(posedge clk_i) begin
    if (do_write) mem_q[wptr_q] <= wdata_i;
  end

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (count_q <= CntW'(Depth)) else $error("fifo: count above depth");
      assert (!(rvalid_o && count_q == '0)) else $error("fifo: valid while empty");
    end
  end
`endif

`ifdef FORMAL
  // Pointer/occupancy invariant: the write pointer leads the read pointer by count.
  logic [PtrW:0] lead;
  always_comb begin
    lead = {1'b0, wptr_q} + ((wptr_q < rptr_q) ? (PtrW + 1)'(Depth) : '0) - {1'b0, rptr_q};
  end
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (count_q <= CntW'(Depth));
      assert (rptr_q <= PtrW'(Depth - 1));
      assert (wptr_q <= PtrW'(Depth - 1));
      assert ((count_q == CntW'(Depth)) ? (lead == '0) : (CntW'(lead) == count_q));
    end
  end
`endif

endmodule
